package dev.tailor.tables;

import java.util.Locale;

/**
 * Tail-control's threshold calculation (Li et al., PPoPP'16, §4.1, Fig. 3): for a number of active
 * requests {@code q}, the large-request threshold {@code l} among the bins' works that minimises
 * the requests expected to miss the target during a pileup, {@code miss_l + miss_s}.
 *
 * <p>Inputs: the work distribution {@code {(p_i, w_i)}}, the target, the rate {@code rps} and the
 * cores {@code m}. For a candidate {@code l}, with {@code w̄ = Σ p_i w_i} and {@code U = w̄·rps <
 * m}:
 *
 * <pre>
 * p_l = Σ_{w_i > l} p_i
 * w̄_s = Σ_{w_i < l} p_i w_i / (1 - p_l)
 * w̄_e = Σ_{w_i <= l} p_i w_i + Σ_{w_i > l} p_i l
 * w̄_f = Σ_{w_i > l} p_i (w_i - l) / p_l
 * T = max{ (w̄_f + l + (q - 1) w̄) / (m - U), l/m + w̄_f }
 * miss_l = p_l (rps·T + q - 1) + 1
 * m_s = m - miss_l·w̄_f / T                       (m_s <= 0: miss_s = ∞)
 * x = (target·m_s - w̄_s - l) / w̄_e
 * miss_s = max(q - 1 - x, 0) · (m_s/w̄_e) / (m_s/w̄_e - rps) · (1 - p_l)   (rate <= 0: ∞)
 * </pre>
 *
 * These are the paper's formulas as printed, including its {@code w_i < l} in {@code w̄_s}, which
 * leaves the bin at {@code l} out of the small requests' mean work while {@code p_l} counts it as
 * small; with no large request ({@code p_l = 0}) {@code w̄_f} is 0.
 *
 * <p>Ties go to the larger threshold: the paper serializes conservatively. Cost: the per-candidate
 * sums once, {@code O(n²)} as the paper's loop computes them, then {@code O(n)} per load.
 */
public final class ThresholdCalculation {

  /**
   * What one candidate threshold is expected to cost during a pileup.
   *
   * @param thresholdNanos the candidate {@code l}
   * @param pileupSeconds the pileup's length {@code T}
   * @param largeMisses {@code miss_l}
   * @param smallMisses {@code miss_s}, infinite where the candidate overruns the system
   */
  public record Candidate(
      long thresholdNanos, double pileupSeconds, double largeMisses, double smallMisses) {

    /** The expected misses, {@code miss_l + miss_s}. */
    public double misses() {
      return largeMisses + smallMisses;
    }
  }

  private final long[] works;
  private final double[] w; // seconds
  private final double mean;
  private final double target;
  private final double rps;
  private final int m;
  // Per candidate k (l = w[k]): p_l, w̄_s, w̄_e, w̄_f.
  private final double[] pl;
  private final double[] ws;
  private final double[] we;
  private final double[] wf;

  /**
   * A calculation over {@code distribution} for a target, a rate and a number of cores.
   *
   * @throws IllegalArgumentException if the target, rate or cores are not positive, or the
   *     utilization {@code w̄·rps} is not below the cores (the system would be overloaded, which
   *     the paper's model excludes)
   */
  public ThresholdCalculation(
      WorkDistribution distribution, long targetNanos, double rps, int cores) {
    if (targetNanos <= 0 || !(rps > 0) || cores < 1) {
      throw new IllegalArgumentException(
          "need a positive target, rate and cores, got "
              + targetNanos
              + " ns, "
              + rps
              + " rps, "
              + cores);
    }
    double[] p = distribution.probabilities();
    this.works = distribution.maxWorkNanos();
    int n = works.length;
    this.w = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      w[i] = works[i] / 1e9;
      sum += p[i] * w[i];
    }
    this.mean = sum;
    this.target = targetNanos / 1e9;
    this.rps = rps;
    this.m = cores;
    if (!(utilization() < cores)) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "the mean work %.3f ms at %.1f rps keeps %.2f cores busy, not fewer than the %d"
                  + " cores: the system is overloaded and no threshold helps",
              mean * 1e3,
              rps,
              utilization(),
              cores));
    }
    pl = new double[n];
    ws = new double[n];
    we = new double[n];
    wf = new double[n];
    for (int k = 0; k < n; k++) {
      double l = w[k];
      double large = 0;
      double smallWork = 0;
      double atMost = 0;
      double excess = 0;
      for (int i = 0; i < n; i++) {
        if (w[i] > l) {
          large += p[i];
          excess += p[i] * (w[i] - l);
        } else {
          atMost += p[i] * w[i];
          if (w[i] < l) {
            smallWork += p[i] * w[i];
          }
        }
      }
      pl[k] = large;
      ws[k] = large < 1 ? smallWork / (1 - large) : 0;
      we[k] = atMost + large * l;
      wf[k] = large > 0 ? excess / large : 0;
    }
  }

  /** The utilization {@code U = w̄·rps}, in cores. */
  public double utilization() {
    return mean * rps;
  }

  /** The mean work {@code w̄}, in nanoseconds. */
  public double meanWorkNanos() {
    return mean * 1e9;
  }

  /** The number of candidates, one per bin. */
  public int candidates() {
    return w.length;
  }

  /**
   * The expected misses with the {@code k}-th bin's work as the threshold, at {@code q} active
   * requests.
   *
   * @throws IllegalArgumentException if {@code q < 1} or {@code k} is not a bin
   */
  public Candidate evaluate(int q, int k) {
    if (q < 1 || k < 0 || k >= w.length) {
      throw new IllegalArgumentException("need q >= 1 and a bin, got q=" + q + ", k=" + k);
    }
    double l = w[k];
    double pLarge = pl[k];
    double essential = we[k];
    double superfluous = wf[k];
    double u = utilization();
    double t = Math.max((superfluous + l + (q - 1) * mean) / (m - u), l / m + superfluous);
    double missLarge = pLarge * (rps * t + q - 1) + 1;
    // Cores the large requests' serialized work holds; none when there is none (T may then be 0).
    double mSmall = m - (superfluous > 0 ? missLarge * superfluous / t : 0);
    double missSmall;
    if (!(mSmall > 0)) {
      missSmall = Double.POSITIVE_INFINITY;
    } else if (essential <= 0) {
      missSmall = 0; // no small work: nothing can wait behind it
    } else {
      double x = (target * mSmall - ws[k] - l) / essential;
      double service = mSmall / essential;
      double drain = service - rps;
      missSmall =
          drain <= 0
              ? Double.POSITIVE_INFINITY
              : Math.max(q - 1 - x, 0) * service / drain * (1 - pLarge);
    }
    return new Candidate(works[k], t, missLarge, missSmall);
  }

  /**
   * The threshold for {@code q} active requests: the candidate with the fewest expected misses, the
   * larger on a tie; if every candidate overruns the system, the smallest.
   *
   * @throws IllegalArgumentException if {@code q < 1}
   */
  public Candidate best(int q) {
    Candidate best = evaluate(q, 0);
    for (int k = 1; k < w.length; k++) {
      Candidate c = evaluate(q, k);
      if (c.misses() <= best.misses() && c.misses() < Double.POSITIVE_INFINITY) {
        best = c;
      }
    }
    return best;
  }
}
