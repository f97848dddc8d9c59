package dev.tailor.auto;

import dev.tailor.core.Durations;
import dev.tailor.core.Experimental;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How {@code auto} learns. The defaults, and why:
 *
 * <ul>
 *   <li>{@code samples=4096}: the reservoir, 4096 × 34 bytes = 136 KiB, and a quarter as many
 *       probes kept apart (34 KiB); enough for the P99 of the guard's simulation to rest on 40
 *       requests and for the probes' thirds to hold a few dozen.
 *   <li>{@code period=15m}, {@code requests=2000}: a rebuild waits for both, whichever comes later,
 *       so a quiet service does not rebuild from a handful of requests and a busy one not more than
 *       every fifteen minutes; a rebuild takes seconds of one core ({@code ./tailor bench
 *       auto-rebuild}), so fifteen minutes keeps it under the 2% share without the cap having to
 *       stretch it.
 *   <li>{@code probes=0.01}: 1% of the requests run at a probing degree, chosen by their id: a
 *       quarter of them at degree 1 (0.25% of requests, at any load: few enough that these, the
 *       slowest requests where parallelism pays, cannot set the P99), the rest at 2, half the
 *       workers or all of them while that many are idle and none waits. Probes accumulate in a
 *       reservoir of their own, so a busy period still adds to what speedup rests on.
 *   <li>{@code cpu=0.02}: rebuilds use at most 2% of one core averaged: after a rebuild that took
 *       {@code c} of CPU, the next waits at least {@code c / 0.02}.
 *   <li>{@code timeout=2m}: a rebuild that runs longer is abandoned and counted as failed.
 *   <li>{@code requests-per-point=2000}, {@code seeds=2}: the guard's and the table search's
 *       simulations; {@code iterations=20}: the target table's search steps.
 *   <li>{@code max-degree=0}: every worker; a smaller cap bounds probes and rebuilt policies alike.
 * </ul>
 *
 * <p>Rebuilds run on one background daemon thread at the lowest priority. A simulation runs them
 * instead on the thread that saw the request that made one due, at that moment, so that a simulated
 * {@code auto} is deterministic (the virtual clock stands still while it runs): that is no setting,
 * but a policy made for the simulator, {@link AutoPolicy#forSimulation}.
 *
 * @param samples the reservoir's capacity
 * @param periodNanos the least time between rebuilds
 * @param requests the least requests between rebuilds
 * @param probeShare the share of requests picked, by a hash of their id, to be probed: a quarter of
 *     them at degree 1 whatever the load, the rest at a second degree if that many workers are idle
 *     and no other request waits when they are admitted (else they are not probed)
 * @param cpuShare the share of one core rebuilds may use averaged
 * @param timeoutNanos how long one rebuild may run
 * @param requestsPerPoint requests per simulated point
 * @param seeds seeds the guard averages over
 * @param iterations the target table search's bound on steps
 * @param maxDegree the most threads a request may get from a probe or a rebuilt policy, or 0 for
 *     every worker
 */
@Experimental
public record AutoSettings(
    int samples,
    long periodNanos,
    int requests,
    double probeShare,
    double cpuShare,
    long timeoutNanos,
    int requestsPerPoint,
    int seeds,
    int iterations,
    int maxDegree) {

  /** The defaults. */
  public static final AutoSettings DEFAULTS =
      new AutoSettings(4096, 900_000_000_000L, 2000, 0.01, 0.02, 120_000_000_000L, 2000, 2, 20, 0);

  /**
   * Checks the settings.
   *
   * @throws IllegalArgumentException naming the first bad setting
   */
  public AutoSettings {
    if (samples < 100) {
      throw new IllegalArgumentException("samples: need at least 100, got " + samples);
    }
    if (periodNanos < 0) {
      throw new IllegalArgumentException("period: need a duration >= 0");
    }
    if (requests < 100 || requests > samples) {
      throw new IllegalArgumentException(
          "requests: need 100 to samples (" + samples + "), got " + requests);
    }
    if (!(probeShare >= 0 && probeShare <= 0.5)) {
      throw new IllegalArgumentException("probes: need a share from 0 to 0.5, got " + probeShare);
    }
    if (!(cpuShare > 0 && cpuShare <= 1)) {
      throw new IllegalArgumentException("cpu: need a share above 0, at most 1, got " + cpuShare);
    }
    if (timeoutNanos <= 0) {
      throw new IllegalArgumentException("timeout: need a duration above 0");
    }
    if (maxDegree < 0) {
      throw new IllegalArgumentException(
          "max-degree: need 0 (every worker) or more, got " + maxDegree);
    }
    if (requestsPerPoint < 100 || seeds < 1 || iterations < 0) {
      throw new IllegalArgumentException(
          "requests-per-point: need at least 100; seeds at least 1; iterations at least 0");
    }
  }

  /**
   * The defaults with the settings of a specification's arguments changed: {@code key=value} pairs
   * separated by commas, such as {@code period=30s,requests=500}.
   *
   * @throws IllegalArgumentException naming the setting that is unknown or malformed and what was
   *     expected
   */
  public static AutoSettings parse(String args) {
    return parse(args.isBlank() ? List.of() : List.of(args.split(",")));
  }

  /**
   * The defaults with the settings of a specification's arguments changed, each a {@code key=value}
   * pair ({@link dev.tailor.core.policy.PolicySpec#arguments()}).
   *
   * @throws IllegalArgumentException naming the setting that is unknown or malformed and what was
   *     expected
   */
  static AutoSettings parse(List<String> args) {
    AutoSettings s = DEFAULTS;
    int samples = s.samples;
    long period = s.periodNanos;
    int requests = s.requests;
    double probes = s.probeShare;
    double cpu = s.cpuShare;
    long timeout = s.timeoutNanos;
    int perPoint = s.requestsPerPoint;
    int seeds = s.seeds;
    int iterations = s.iterations;
    int maxDegree = s.maxDegree;
    for (String piece : args) {
      String p = piece.trim();
      if (p.equalsIgnoreCase(INLINE)) {
        throw new IllegalArgumentException(
            "inline: rebuilds run on the deciding thread only in a simulation, which makes the"
                + " policy with AutoPolicy.forSimulation(settings), as ./tailor auto does; served,"
                + " rebuilds run in the background, and a specification cannot change that");
      }
      int eq = p.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException(
            "expected key=value, got '" + p + "' (keys: " + KEYS + ")");
      }
      String key = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = p.substring(eq + 1).trim();
      try {
        switch (key) {
          case "samples" -> samples = Integer.parseInt(value);
          case "period" -> period = Durations.parseNanos(value);
          case "requests" -> requests = Integer.parseInt(value);
          case "probes" -> probes = Double.parseDouble(value);
          case "cpu" -> cpu = Double.parseDouble(value);
          case "timeout" -> timeout = Durations.parseNanos(value);
          case "requests-per-point" -> perPoint = Integer.parseInt(value);
          case "seeds" -> seeds = Integer.parseInt(value);
          case "iterations" -> iterations = Integer.parseInt(value);
          case "max-degree" -> maxDegree = Integer.parseInt(value);
          default ->
              throw new IllegalArgumentException(
                  "unknown setting '" + key + "' (keys: " + KEYS + ")");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + ": expected a number, got '" + value + "'", e);
      } catch (IllegalArgumentException e) {
        throw e.getMessage().startsWith("unknown setting")
            ? e
            : new IllegalArgumentException(key + ": " + e.getMessage(), e);
      }
    }
    return new AutoSettings(
        samples, period, requests, probes, cpu, timeout, perPoint, seeds, iterations, maxDegree);
  }

  /** The flag a specification once took for inline rebuilds, now refused with how to get them. */
  private static final String INLINE = "inline";

  private static final String KEYS =
      "samples, period, requests, probes, cpu, timeout, requests-per-point, seeds, iterations,"
          + " max-degree";

  /** The settings as a specification's arguments, only those that differ from the defaults. */
  String args() {
    return String.join(",", arguments());
  }

  /**
   * The settings that differ from the defaults, each as a specification's {@code key=value}
   * argument, in the order {@link #parse} lists its keys.
   */
  List<String> arguments() {
    List<String> out = new ArrayList<>();
    AutoSettings d = DEFAULTS;
    add(out, samples != d.samples, "samples=" + samples);
    add(out, periodNanos != d.periodNanos, "period=" + Durations.format(periodNanos));
    add(out, requests != d.requests, "requests=" + requests);
    add(out, probeShare != d.probeShare, "probes=" + probeShare);
    add(out, cpuShare != d.cpuShare, "cpu=" + cpuShare);
    add(out, timeoutNanos != d.timeoutNanos, "timeout=" + Durations.format(timeoutNanos));
    add(out, requestsPerPoint != d.requestsPerPoint, "requests-per-point=" + requestsPerPoint);
    add(out, seeds != d.seeds, "seeds=" + seeds);
    add(out, iterations != d.iterations, "iterations=" + iterations);
    add(out, maxDegree != d.maxDegree, "max-degree=" + maxDegree);
    return out;
  }

  private static void add(List<String> out, boolean differs, String text) {
    if (differs) {
      out.add(text);
    }
  }
}
