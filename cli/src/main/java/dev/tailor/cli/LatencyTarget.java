package dev.tailor.cli;

import dev.tailor.core.Durations;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --target}: one latency target, the service-level objective whose miss ratio a report
 * judges policies by (Li et al., PPoPP'16, §5), as a duration above zero (e.g. {@code 20ms}), in
 * nanoseconds. picocli names the option in any error this gives.
 */
final class LatencyTarget implements ITypeConverter<Long> {

  /**
   * What a URL given to {@code --target} is told: {@code replay --target} named the search server
   * before it was {@code --server}, so an old command line must not fail with a bare "not a
   * duration".
   */
  static final String URL_GIVEN =
      "--target takes a latency target such as 20ms; the server to replay against is --server URL";

  /**
   * Parses a latency target.
   *
   * @throws TypeConversionException if the value is a URL, not a duration, or zero
   */
  @Override
  public Long convert(String value) {
    if (value.contains("://")) {
      throw new TypeConversionException(URL_GIVEN);
    }
    long nanos;
    try {
      nanos = Durations.parseNanos(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
    if (nanos <= 0) {
      throw new TypeConversionException(
          "'" + value + "' is no latency target: every request would miss it; give one above zero");
    }
    return nanos;
  }

  /**
   * The latency targets whose miss ratios every point records: {@code targets} in order, then
   * {@code target} unless one of them already is it (the same nanoseconds, e.g. {@code 0.05s} and
   * {@code 50ms}), since a point records one ratio per target label.
   *
   * @param target the latency target, or null for none
   */
  static List<Long> withTarget(List<Long> targets, Long target) {
    Set<Long> out = new LinkedHashSet<>(targets);
    if (target != null) {
      out.add(target);
    }
    return new ArrayList<>(out);
  }
}
