package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code tailor classes}: one small point per utilization, and bad options named. */
class ClassesCommandTest {

  @Test
  void printsARowPerUtilizationWithEveryFigure() {
    Cli cli = new Cli();
    assertEquals(
        0,
        cli.run(
            "classes",
            "--cores",
            "4",
            "--requests",
            "600",
            "--utilizations",
            "0.3,0.6",
            "--lognormal",
            "2ms,2ms"),
        cli.err());
    String out = cli.out();
    assertTrue(
        out.contains("4 cores, policy fixed:4, mix interactive:0.9,background:0.1:x10"), out);
    assertTrue(out.contains("background floor 1 thread(s)"), out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("| 0.30 |")), out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("| 0.60 |")), out);
  }

  /** Over three seeds every P99 and ratio carries its interval over them; one seed, none. */
  @Test
  void severalSeedsPoolEveryP99WithItsIntervalOverThem() {
    String[] args = {
      "classes",
      "--cores",
      "4",
      "--requests",
      "600",
      "--utilizations",
      "0.6",
      "--lognormal",
      "2ms,2ms"
    };
    Cli three = new Cli();
    assertEquals(0, three.run(concat(args, "--seeds", "3")), three.err());
    String row = row(three.out());
    assertTrue(three.out().contains("seeds 1-3, each P99 pooled over them"), three.out());
    String[] cells = row.split("\\|");
    for (int i = 3; i <= 8; i++) { // alone, off, on, off/alone, on/alone, background
      assertTrue(cells[i].matches(" [0-9.]+ \\[[0-9.]+-[0-9.]+\\] "), "cell " + i + ": " + row);
    }
    Cli one = new Cli();
    assertEquals(0, one.run(args), one.err());
    assertTrue(one.out().contains("seed 1"), one.out());
    assertTrue(!row(one.out()).contains("["), row(one.out()));
    Cli bad = new Cli();
    assertEquals(2, bad.run(concat(args, "--seeds", "0")));
    assertTrue(bad.err().contains("--seeds: must be at least 1, got 0"), bad.err());
  }

  private static String row(String out) {
    return out.lines().filter(l -> l.startsWith("| 0.60 |")).findFirst().orElseThrow();
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void aBadMixOrShareIsNamed() {
    Cli cli = new Cli();
    assertEquals(2, cli.run("classes", "--mix", "interactive:0.5"));
    assertTrue(
        cli.err().contains("--mix: mix 'interactive:0.5': the fractions must sum to 1"), cli.err());
    Cli share = new Cli();
    assertEquals(2, share.run("classes", "--background-share", "2"));
    assertTrue(
        share.err().contains("--background-share: a class share must be in [0, 1], got 2.0"),
        share.err());
  }
}
