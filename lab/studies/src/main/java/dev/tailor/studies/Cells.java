package dev.tailor.studies;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** How the studies format a table's cells. */
public final class Cells {

  private Cells() {}

  /** A latency in the unit that keeps three significant digits readable: 59.72us, 1.30ms. */
  public static String latency(long nanos) {
    if (nanos >= 1_000_000) {
      return String.format(Locale.ROOT, "%.2fms", nanos / 1e6);
    }
    if (nanos >= 1_000) {
      return String.format(Locale.ROOT, "%.2fus", nanos / 1e3);
    }
    return nanos + "ns";
  }

  /** A quantile as a percentile to three decimals at most: P99, P99.8, P99.975. */
  public static String percentile(double q) {
    BigDecimal p = BigDecimal.valueOf(q * 100).setScale(3, RoundingMode.HALF_EVEN);
    return "P" + p.stripTrailingZeros().toPlainString();
  }

  /** A number as typed, without trailing zeros: 0.5, 0.01. */
  public static String plain(double v) {
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /** {@code String.format} in the root locale. */
  static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
