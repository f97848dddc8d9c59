package dev.tailor.core;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints the durations used in specification strings and on the command line: a
 * non-negative decimal number followed by a unit, one of {@code ns}, {@code us}, {@code ms}, {@code
 * s}, {@code m}, e.g. {@code 5ms}, {@code 0.5s}, {@code 250us}.
 */
@Internal
public final class Durations {

  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|m)");

  private Durations() {}

  /**
   * Parses a duration into nanoseconds.
   *
   * @throws IllegalArgumentException naming the text and the expected form if it does not parse
   */
  public static long parseNanos(String text) {
    Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a duration: expected a number and a unit (ns, us, ms, s, m), e.g. 5ms");
    }
    double value = Double.parseDouble(m.group(1));
    double unit =
        switch (m.group(2)) {
          case "ns" -> 1;
          case "us" -> 1e3;
          case "ms" -> 1e6;
          case "s" -> 1e9;
          default -> 60e9;
        };
    return Math.round(value * unit);
  }

  /** Prints nanoseconds in the largest unit that keeps the value whole, e.g. {@code 10ms}. */
  public static String format(long nanos) {
    if (nanos != 0) {
      if (nanos % 1_000_000_000L == 0) {
        return nanos / 1_000_000_000L + "s";
      }
      if (nanos % 1_000_000L == 0) {
        return nanos / 1_000_000L + "ms";
      }
      if (nanos % 1_000L == 0) {
        return nanos / 1_000L + "us";
      }
    }
    return nanos + "ns";
  }
}
