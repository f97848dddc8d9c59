package dev.tailor.measure;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * What a {@link NoiseMeter} saw of the machine over one window: how late a thread that only sleeps
 * woke up (stalls: scheduling delays, safepoints, GC pauses, steal, all that would delay any thread
 * of this JVM), the garbage collector's stop-the-world pauses, and the CPU time the hypervisor and
 * other processes took. A point of a sweep carries the reading of its measured window ({@link
 * PointResult#noise}), so that a slow point can be told from a slow machine.
 *
 * <p>Stalls are the meter's oversleeps: each time it asks to sleep {@code periodNanos}, the time it
 * actually slept minus that (0 if it woke on time), recorded with HdrHistogram's correction for
 * coordinated omission (a stall of {@code k} periods also records the {@code k - 1} shorter stalls
 * the samples it missed would have seen), as jHiccup does. On an idle Linux machine a sleep
 * oversleeps by some 50-150 µs (timer slack and wake-up), so P50 is that floor, not zero. The
 * figures are per sample, so readings compare at the same period only.
 *
 * <p>Since {@link PointResult} version 5 a reading also keeps two histograms whole, from which the
 * simulator's machine model is measured ({@code tailor calibrate}): every sleep's oversleep once,
 * without the correction (one count per sleep, so that a stall is one event, however long), and
 * every stop-the-world GC pause's duration. Readings of older points have neither (null).
 *
 * @param windowNanos the window's length
 * @param periodNanos the meter's sleep period, the interval its stalls are corrected for
 * @param stallSamples the oversleeps the stall figures are taken from: about one per period, plus
 *     those the correction filled in for a long stall
 * @param stallP50Nanos the median oversleep
 * @param stallP99Nanos the 99th percentile oversleep, the figure {@link #stallsExceed} judges
 * @param stallP999Nanos the 99.9th percentile oversleep
 * @param stallMaxNanos the longest oversleep
 * @param gcPauses the garbage collector's stop-the-world pauses reported in the window (concurrent
 *     cycles are not pauses and are left out; see {@link NoiseMeter})
 * @param gcPauseTotalNanos their total, as the JVM reports each: in whole milliseconds
 * @param gcPauseMaxNanos the longest of them
 * @param stealFraction the share of all the machine's CPU time (all cores) the hypervisor stole,
 *     0..1, or NaN where unknown (no {@code /proc}, as on macOS)
 * @param otherCpuFraction the share of all the machine's CPU time (all cores) busy outside this
 *     process (other processes, among them a server under test run as its own process, and the
 *     kernel's interrupt work), steal left out, 0..1, or NaN where unknown
 * @param meterCpuFraction the meter thread's own CPU time over the window as a share of one core
 *     (its cost), or NaN where the JVM does not measure thread CPU time
 * @param oversleepHistogram every sleep's oversleep in nanoseconds, one count per sleep and no
 *     correction for coordinated omission, as {@link PointResult#encode} encodes a histogram; null
 *     where not kept (a reading older than {@link PointResult} version 5)
 * @param gcPauseHistogram the durations of the GC pauses counted in {@code gcPauses}, nanoseconds
 *     (whole milliseconds, as the JVM reports them), encoded likewise; null where not kept
 */
public record MachineNoise(
    long windowNanos,
    long periodNanos,
    long stallSamples,
    long stallP50Nanos,
    long stallP99Nanos,
    long stallP999Nanos,
    long stallMaxNanos,
    long gcPauses,
    long gcPauseTotalNanos,
    long gcPauseMaxNanos,
    double stealFraction,
    double otherCpuFraction,
    double meterCpuFraction,
    String oversleepHistogram,
    String gcPauseHistogram) {

  /**
   * The stall P99 above which a window's machine counts as noisy: 5 ms. An undisturbed machine's
   * sleep oversleeps by 0.05-0.15 ms; a P99 of 5 ms means that for more than one sleep in a hundred
   * every thread of this JVM could have been kept off a core for 5 ms or more: a competing runnable
   * thread holding the core for a scheduler time slice or more (a few ms), a GC pause, or the
   * hypervisor's steal. The bound is above one missed timer tick (4 ms at the common 250 Hz), so
   * that a single late tick does not trip it, and well below the latency targets a sweep reports
   * (tens of ms in the demo), so that a tripped bound says the machine, not the policy, moved the
   * point's tail.
   */
  public static final long DEFAULT_STALL_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /** A reading without its histograms, as points older than version 5 have it. */
  public MachineNoise(
      long windowNanos,
      long periodNanos,
      long stallSamples,
      long stallP50Nanos,
      long stallP99Nanos,
      long stallP999Nanos,
      long stallMaxNanos,
      long gcPauses,
      long gcPauseTotalNanos,
      long gcPauseMaxNanos,
      double stealFraction,
      double otherCpuFraction,
      double meterCpuFraction) {
    this(
        windowNanos,
        periodNanos,
        stallSamples,
        stallP50Nanos,
        stallP99Nanos,
        stallP999Nanos,
        stallMaxNanos,
        gcPauses,
        gcPauseTotalNanos,
        gcPauseMaxNanos,
        stealFraction,
        otherCpuFraction,
        meterCpuFraction,
        null,
        null);
  }

  /** Whether the reading keeps its oversleep and GC pause histograms (version 5 on). */
  @JsonIgnore
  public boolean hasHistograms() {
    return oversleepHistogram != null && gcPauseHistogram != null;
  }

  /**
   * Every sleep's oversleep, one count per sleep, decoded.
   *
   * @throws IllegalStateException if the reading does not keep it ({@link #hasHistograms})
   */
  public Histogram oversleeps() {
    return decoded(oversleepHistogram, "oversleepHistogram");
  }

  /**
   * The GC pauses' durations, decoded.
   *
   * @throws IllegalStateException if the reading does not keep them ({@link #hasHistograms})
   */
  public Histogram gcPauseDurations() {
    return decoded(gcPauseHistogram, "gcPauseHistogram");
  }

  private static Histogram decoded(String encoded, String field) {
    if (encoded == null) {
      throw new IllegalStateException(
          "the reading keeps no " + field + " (a point older than version 5)");
    }
    return PointResult.decode(encoded);
  }

  /**
   * Checks the reading.
   *
   * @throws IllegalArgumentException if the period is not positive, a length or count is negative,
   *     the stall percentiles are out of order, or a fraction is negative (steal and other CPU: or
   *     above 1)
   */
  public MachineNoise {
    if (periodNanos < 1) {
      throw new IllegalArgumentException("the period must be positive, got " + periodNanos);
    }
    if (windowNanos < 0 || stallSamples < 0 || gcPauses < 0 || gcPauseTotalNanos < 0) {
      throw new IllegalArgumentException(
          "lengths and counts must not be negative, got window "
              + windowNanos
              + ", "
              + stallSamples
              + " stall samples, "
              + gcPauses
              + " GC pauses of "
              + gcPauseTotalNanos
              + " ns");
    }
    if (stallP50Nanos < 0
        || stallP50Nanos > stallP99Nanos
        || stallP99Nanos > stallP999Nanos
        || stallP999Nanos > stallMaxNanos) {
      throw new IllegalArgumentException(
          "stall percentiles must be >= 0 and ascending, got P50 "
              + stallP50Nanos
              + ", P99 "
              + stallP99Nanos
              + ", P99.9 "
              + stallP999Nanos
              + ", max "
              + stallMaxNanos);
    }
    if (gcPauseMaxNanos < 0 || gcPauseMaxNanos > gcPauseTotalNanos) {
      throw new IllegalArgumentException(
          "the longest GC pause must lie in 0.." + gcPauseTotalNanos + ", got " + gcPauseMaxNanos);
    }
    share("steal", stealFraction, 1);
    share("other CPU", otherCpuFraction, 1);
    share("meter CPU", meterCpuFraction, Double.POSITIVE_INFINITY);
  }

  private static void share(String name, double fraction, double max) {
    if (!Double.isNaN(fraction) && !(fraction >= 0 && fraction <= max)) {
      throw new IllegalArgumentException(
          "the " + name + " fraction must be NaN or in 0.." + max + ", got " + fraction);
    }
  }

  /**
   * Whether the stalls' P99 exceeds {@code boundNanos}, e.g. {@link #DEFAULT_STALL_BOUND_NANOS}:
   * the machine, not only the measured system, was slow in this window.
   */
  public boolean stallsExceed(long boundNanos) {
    return stallP99Nanos > boundNanos;
  }

  /**
   * The reading in one line for a report, e.g. {@code stalls P99 0.21 ms (max 3.1 ms), GC 2 pauses
   * 4.0 ms (max 3.0 ms), steal 0.0%, other CPU 3.1%, meter 0.6% of a core}; an unknown share reads
   * {@code n/a}.
   */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "stalls P99 %.2f ms (max %.1f ms), GC %d %s %.1f ms (max %.1f ms), steal %s, other CPU %s,"
            + " meter %s of a core",
        stallP99Nanos / 1e6,
        stallMaxNanos / 1e6,
        gcPauses,
        gcPauses == 1 ? "pause" : "pauses",
        gcPauseTotalNanos / 1e6,
        gcPauseMaxNanos / 1e6,
        percent(stealFraction),
        percent(otherCpuFraction),
        percent(meterCpuFraction));
  }

  private static String percent(double fraction) {
    return Double.isNaN(fraction) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }
}
