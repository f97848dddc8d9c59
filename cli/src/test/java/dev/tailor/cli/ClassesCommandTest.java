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
