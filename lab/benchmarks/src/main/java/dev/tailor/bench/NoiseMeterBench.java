package dev.tailor.bench;

import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.NoiseMeter;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench noise-meter}: what the {@link NoiseMeter} costs on this machine, its thread's CPU
 * time as a share of one core, measured over a window at its default period and at the periods
 * around it, one meter at a time, each after a warm-up of its own (so that its loop is compiled);
 * and the stalls it saw meanwhile. The goal is at most 1% of one core.
 */
public final class NoiseMeterBench {

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "noise-meter";

  /** The most the meter may cost, as a share of one core. */
  static final double GOAL = 0.01;

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private NoiseMeterBench() {}

  /**
   * Measures and prints the figures: about 32 s, {@code quick} about 16 s.
   *
   * @throws InterruptedException if interrupted while it waits
   */
  public static void run(boolean quick, PrintWriter out) throws InterruptedException {
    long warmupMillis = quick ? 1_000 : 2_000;
    long windowMillis = quick ? 3_000 : 6_000;
    out.printf(
        Locale.ROOT,
        "%nnoise-meter: the meter's thread alone, %d s measured after a %d s warm-up per period, on"
            + " this machine (%d cores); goal: at most %.0f%% of one core%n",
        windowMillis / 1000,
        warmupMillis / 1000,
        Runtime.getRuntime().availableProcessors(),
        100 * GOAL);
    long[] periods = {MS, 2 * MS, 5 * MS, 10 * MS};
    for (long period : periods) {
      MachineNoise n;
      try (NoiseMeter meter = NoiseMeter.start(period)) {
        Thread.sleep(warmupMillis);
        try (NoiseMeter.Window window = meter.window()) {
          Thread.sleep(windowMillis);
          n = window.read();
        }
      }
      double cost = n.meterCpuFraction();
      out.printf(
          Locale.ROOT,
          "  period %4.1f ms%s: meter CPU %5.2f%% of one core (%4.1f us a wake-up, %.0f wake-ups/s);"
              + " stalls P50 %.3f ms, P99 %.3f ms, max %.1f ms; goal -> %s%n",
          period / 1e6,
          period == NoiseMeter.DEFAULT_PERIOD_NANOS ? " (default)" : "          ",
          100 * cost,
          cost * n.windowNanos() / Math.max(1, n.stallSamples()) / 1e3,
          n.stallSamples() * 1e9 / n.windowNanos(),
          n.stallP50Nanos() / 1e6,
          n.stallP99Nanos() / 1e6,
          n.stallMaxNanos() / 1e6,
          Double.isNaN(cost) ? "unknown" : cost <= GOAL ? "met" : "NOT met");
      out.printf(Locale.ROOT, "      %s%n", n.describe());
      out.flush();
    }
  }
}
