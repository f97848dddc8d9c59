package dev.tailor.bench;

import dev.tailor.load.NoopTarget;
import dev.tailor.load.OpenLoopReplayer;
import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.ArrivalProcess;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench load-client}: the load client against a no-op target in this process, at 5,000
 * requests per second: does it send at the rate asked, and on time?
 */
public final class LoadClientBench {

  static final double RATE = 5_000;

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "load-client";

  private LoadClientBench() {}

  /**
   * Measures and prints the figures; {@code quick} measures less: a rough figure in a fraction of
   * the time.
   */
  public static void run(boolean quick, PrintWriter out) throws InterruptedException {
    long duration = TimeUnit.SECONDS.toNanos(quick ? 6 : 22);
    long warmup = TimeUnit.SECONDS.toNanos(2);
    ArrivalProcess poisson = ArrivalProcess.poisson(RATE, 42);
    long[] offsets = poisson.schedule(duration);
    long scheduled = java.util.Arrays.stream(offsets).filter(o -> o >= warmup).count();
    double scheduledRate = scheduled * 1e9 / (offsets[offsets.length - 1] - warmup);
    PointResult r;
    try (NoopTarget target = new NoopTarget()) {
      r =
          OpenLoopReplayer.run(
              target,
              offsets,
              new int[offsets.length],
              new OpenLoopReplayer.Settings(
                  warmup, 1_000_000, TimeUnit.SECONDS.toNanos(10), List.of()),
              new OpenLoopReplayer.Labels(
                  RATE, poisson.toString(), 42, "measured on this machine", "none"));
    }
    double lagP99Micros = r.sendLag().get("p99") / 1e3;
    out.printf(
        "%nload-client: open-loop Poisson at %.0f requests/s against a no-op target in this process,"
            + " %d s measured after a 2 s warm-up, on this machine (%d cores)%n",
        RATE, (duration - warmup) / 1_000_000_000L, Runtime.getRuntime().availableProcessors());
    out.printf(
        "  achieved %.1f requests/s: %.4f of the %.0f asked, %.4f of the %.1f this seed's schedule"
            + " holds%n",
        r.achievedRps(),
        r.achievedRps() / RATE,
        RATE,
        r.achievedRps() / scheduledRate,
        scheduledRate);
    out.printf(
        "  send lag: p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us%n",
        r.sendLag().get("p50") / 1e3,
        lagP99Micros,
        r.sendLag().get("p99.9") / 1e3,
        r.sendLag().get("max") / 1e3);
    boolean rateMet = Math.abs(r.achievedRps() / RATE - 1) <= 0.01;
    out.printf(
        "  goals: rate within 1%% of the target -> %s; send lag p99 under 1 ms -> %s%n",
        rateMet ? "met" : "NOT met", lagP99Micros < 1_000 ? "met" : "NOT met");
    out.flush();
  }
}
