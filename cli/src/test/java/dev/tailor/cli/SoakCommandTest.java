package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.bench.soak.FaultSoak;
import dev.tailor.bench.soak.SoakReport;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code tailor soak}, short: 20,000 requests of every kind, with tables swapped every thousand
 * requests and the heap sampled every five thousand. The long run ({@code --requests 1000000}) is
 * the command's default and not part of the tests.
 */
class SoakCommandTest {

  @Test
  void aShortSoakPassesEveryCheck() {
    Cli cli = new Cli();
    int status =
        cli.run(
            "soak",
            "--requests",
            "20000",
            "--workers",
            "4",
            "--sample-every",
            "5000",
            "--swap-every",
            "1000");
    String out = cli.out();
    assertEquals(0, status, out + cli.err());
    assertTrue(out.contains("result            PASS"), out);
    assertTrue(
        out.contains("exactly once      futures: 0 requests completed other than once"), out);
    assertTrue(out.contains("as planned        0 unexpected outcomes; 0 mid-run"), out);
    Matcher cancelled =
        Pattern.compile("(\\d+) before they started, (\\d+) while running").matcher(out);
    assertTrue(cancelled.find(), out);
    assertTrue(Integer.parseInt(cancelled.group(2)) > 0, "some cancelled mid-run");
    assertTrue(out.contains("left behind: none"), out);
    Matcher tables =
        Pattern.compile(
                "(\\d+) good written, (\\d+) swapped in; (\\d+) corrupt written, (\\d+)"
                    + " rejected")
            .matcher(out);
    assertTrue(tables.find(), out);
    // A swap at every thousandth request but the first: 19.
    assertEquals(19, Integer.parseInt(tables.group(1)) + Integer.parseInt(tables.group(3)));
    assertEquals(tables.group(1), tables.group(2), "every good table swapped in");
    assertEquals(tables.group(3), tables.group(4), "every corrupt file rejected");
    assertTrue(Integer.parseInt(tables.group(3)) > 0, "some corrupt files");
    assertTrue(cli.err().contains("soak: 5,000 of 20,000 requests started"), cli.err());
    Matcher auto = Pattern.compile("auto +(\\d+) rebuilds: (\\d+) failed on purpose").matcher(out);
    assertTrue(auto.find(), out);
  }

  @Test
  void aRequestCompletedTwiceAThreadLeftBehindOrAStallFailsTheSoak() {
    FaultSoak.Options options = new FaultSoak.Options(10, 2, 0, 5, 5, 1);
    SoakReport clean = report(options, 0, List.of());
    assertTrue(clean.passed(), String.join("\n", clean.lines()));
    SoakReport twice = report(options, 1, List.of());
    assertFalse(twice.passed());
    assertTrue(twice.lines().getLast().endsWith("FAIL"));
    assertFalse(report(options, 0, List.of("soak-leak")).passed());
    SoakReport stalled = report(options, 0, List.of(), "no progress for 2 minutes");
    assertFalse(stalled.passed());
    assertTrue(stalled.lines().contains("stalled           no progress for 2 minutes"));
  }

  private static SoakReport report(FaultSoak.Options o, long notOnce, List<String> leftBehind) {
    return report(o, notOnce, leftBehind, null);
  }

  private static SoakReport report(
      FaultSoak.Options o, long notOnce, List<String> leftBehind, String stalled) {
    return new SoakReport(
        o,
        10, // requests
        0, // nested
        8, // completed
        1, // failed
        1, // cancelled
        1, // before they started
        0, // unexpected
        List.of(),
        notOnce,
        10,
        0,
        10,
        0,
        5, // scheduler threads: 2 x 2 workers + 1 of slack - 1, and the reevaluator
        5,
        0,
        0,
        null,
        20,
        20,
        leftBehind,
        1,
        1,
        1,
        1,
        2,
        4, // auto's rebuilds
        2, // failed on purpose
        2, // finished
        0, // samples dropped
        Map.of(),
        List.of(),
        0.5,
        stalled);
  }

  @Test
  void badOptionsAreNamed() {
    Cli cli = new Cli();
    assertEquals(1, cli.run("soak", "--requests", "0"));
    assertTrue(cli.err().contains("--requests must be"), cli.err());
  }
}
