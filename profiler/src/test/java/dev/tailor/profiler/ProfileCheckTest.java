package dev.tailor.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@code tailor profile --check}'s verdict on crafted pairs of profiles. */
class ProfileCheckTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** 100 requests of 0.1 to 10 ms, each scaled by its own factor of noise. */
  private static DemandProfile profile(long seed, double noise, Double busy) {
    SplittableRandom truth = new SplittableRandom(7);
    SplittableRandom random = new SplittableRandom(seed);
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      double t = 1e5 * Math.pow(100, truth.nextDouble());
      long nanos = Math.round(t * (1 + noise * random.nextDouble()));
      requests.add(
          new DemandProfile.Request(
              "q" + i,
              null,
              "query " + i,
              nanos,
              new long[] {nanos},
              new double[] {1.0},
              new double[0],
              new DemandProfile.Features("TermQuery", 1, new long[] {10}, 10),
              new DemandProfile.Spread(7, new double[] {noise})));
    }
    return DemandProfile.of(
        new DemandProfile.Environment("idx", "test", 1000, "trace", 2, "25", "linux", "t"),
        new DemandProfile.Settings(7, 1, 1, 1),
        true,
        new DemandProfile.Conditions(
            1_000_000_000, 3, new long[] {100_000_000}, 0, 0, 5, busy, 0.0),
        requests);
  }

  @Test
  void twoProfilesThatAgreePass() throws IOException {
    boolean ok =
        ProfileCheck.run(
            (file, take) -> profile(take, 0.01, 0.01), new PrintWriter(out), new PrintWriter(err));
    assertTrue(ok, out + "\n" + err);
    assertTrue(
        out.toString().startsWith("check: two profiles of the same 100 queries"), out.toString());
    assertEquals("", err.toString());
  }

  @Test
  void twoProfilesThatDisagreeFailNamingWhatWasMissedAndHowBusyTheMachineWas() throws IOException {
    // Up to 3x noise per query, as on a machine where another process takes a core.
    boolean ok =
        ProfileCheck.run(
            (file, take) -> profile(take, 2.0, 0.45), new PrintWriter(out), new PrintWriter(err));
    assertFalse(ok);
    String e = err.toString();
    assertTrue(e.contains("two profiles of the same 100 queries disagree"), e);
    assertTrue(e.contains("median per-query difference"), e);
    assertTrue(e.contains("no profile was taken"), e);
    assertTrue(e.contains("other processes 45% of the CPU"), e);
    assertTrue(e.contains("warning: other processes used 45%"), e);
  }
}
