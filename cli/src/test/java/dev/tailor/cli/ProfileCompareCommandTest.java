package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailor profile compare A B} on crafted profiles, without the options {@code tailor
 * profile} itself requires.
 */
class ProfileCompareCommandTest {

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  /** Writes a given profile of requests "0".."n-1" (queries "q0"...) with these times. */
  private Path write(String name, long... nanos) throws IOException {
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < nanos.length; i++) {
      requests.add(
          new DemandProfile.Request(
              Integer.toString(i),
              null,
              "q" + i,
              nanos[i],
              new long[] {nanos[i]},
              new double[] {1.0},
              new double[0],
              new DemandProfile.Features("TermQuery", 1, new long[] {10}, 10)));
    }
    Path file = tmp.resolve(name);
    DemandProfile.of(
            new DemandProfile.Environment(
                "idx", "synthetic", 1000, "trace.txt", 1, "25", "linux", "t"),
            new DemandProfile.Settings(1, 1, 1, 1),
            true,
            requests)
        .write(file);
    return file;
  }

  private static long[] ramp(int n, long step) {
    long[] t = new long[n];
    for (int i = 0; i < n; i++) {
      t[i] = step * (i + 1);
    }
    return t;
  }

  @Test
  void agreeingProfilesPrintTheirFiguresAndExitZero() throws IOException {
    Path a = write("a.json", ramp(20, 1_000_000));
    Path b = write("b.json", ramp(20, 1_000_000));
    int status = cli.run("profile", "compare", "--fail-on-shortfall", a.toString(), b.toString());
    assertEquals(0, status, cli.err());
    String out = cli.out();
    assertTrue(out.startsWith("A: " + a + " (20 requests, taken t)"), out);
    assertTrue(out.contains("B: " + b), out);
    assertTrue(out.contains("20 requests matched by id and query (0 only in A, 0 only in B)"), out);
    assertTrue(out.matches("(?s).*correlation of log sequential time\\s+1\\.000.*"), out);
    assertTrue(out.matches("(?s).*median per-query difference\\s+0\\.0%.*"), out);
    assertTrue(out.matches("(?s).*mean of B over mean of A\\s+1\\.000.*"), out);
    assertFalse(out.contains("MISSED"), out);
    assertTrue(out.contains("every goal is met"), out);
    assertEquals("", cli.err());
  }

  @Test
  void disagreeingProfilesFailOnlyWhenAsked() throws IOException {
    Path a = write("a.json", ramp(20, 1_000_000));
    Path b = write("b.json", ramp(20, 1_200_000)); // every query 20% slower
    assertEquals(0, cli.run("profile", "compare", a.toString(), b.toString()), cli.err());
    assertTrue(cli.out().contains("MISSED"), cli.out());

    Cli strict = new Cli();
    int status =
        strict.run("profile", "compare", a.toString(), b.toString(), "--fail-on-shortfall");
    assertEquals(1, status, strict.err());
    String out = strict.out();
    assertTrue(out.matches("(?s).*mean of B over mean of A\\s+1\\.200 .*MISSED.*"), out);
    assertTrue(out.contains("median per-query difference 20.0% is above 5.0%"), out);
    assertTrue(out.contains("mean sequential time of B differs from A's by +20.0%"), out);
  }

  @Test
  void missingProfilesAreAUsageError() throws IOException {
    Path a = write("a.json", ramp(20, 1_000_000));
    assertEquals(2, cli.run("profile", "compare", a.toString()));
    assertTrue(cli.err().contains("Missing required parameter: 'B'"), cli.err());
    assertTrue(cli.err().contains("Usage: tailor profile compare"), cli.err());
    Cli none = new Cli();
    assertEquals(2, none.run("profile", "compare"));
    assertTrue(none.err().contains("Missing required parameters: 'A', 'B'"), none.err());
  }

  @Test
  void helpIsPrintedAndProfileItselfStillRequiresItsOptions() {
    assertEquals(0, cli.run("profile", "compare", "--help"));
    assertTrue(cli.out().contains("--fail-on-shortfall"), cli.out());
    // The index and trace are a group so that compare runs without them; profile still needs them.
    Cli profile = new Cli();
    assertEquals(2, profile.run("profile", "--out", "p.json"));
    assertTrue(profile.err().contains("Missing required options: '--index=DIR'"), profile.err());
  }

  @Test
  void aBadFileIsNamedAndExitsTwo() throws IOException {
    Path a = write("a.json", ramp(20, 1_000_000));
    Path bad =
        Files.writeString(tmp.resolve("bad.json"), "{\"format\": \"tailor-demand-profile\"}");
    assertEquals(2, cli.run("profile", "compare", a.toString(), bad.toString()));
    assertTrue(cli.err().startsWith("tailor profile compare: " + bad), cli.err());

    Path missing = tmp.resolve("missing.json");
    Cli other = new Cli();
    assertEquals(2, other.run("profile", "compare", missing.toString(), a.toString()));
    assertTrue(other.err().startsWith("tailor profile compare: " + missing), other.err());
  }
}
