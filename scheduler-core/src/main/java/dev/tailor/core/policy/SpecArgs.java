package dev.tailor.core.policy;

import dev.tailor.core.Durations;
import java.util.List;

/** Reads the arguments of a policy specification ({@link PolicySpec#arguments()}). */
final class SpecArgs {

  private final List<String> parts;

  private SpecArgs(List<String> parts) {
    this.parts = parts;
  }

  /**
   * The specification's arguments, each trimmed, with their count checked.
   *
   * @throws IllegalArgumentException if there are fewer than {@code min} or more than {@code max}
   */
  static SpecArgs of(PolicySpec spec, int min, int max) {
    List<String> parts = spec.arguments().stream().map(String::trim).toList();
    if (parts.size() < min || parts.size() > max) {
      String expected = min == max ? Integer.toString(min) : min + " to " + max;
      throw new IllegalArgumentException(
          "expected " + expected + " argument(s), got " + parts.size());
    }
    return new SpecArgs(parts);
  }

  int size() {
    return parts.size();
  }

  int positiveInt(int i, String what) {
    try {
      int v = Integer.parseInt(parts.get(i));
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        what + " must be a whole number >= 1, got '" + parts.get(i) + "'");
  }

  long positiveNanos(int i, String what) {
    long v = nanos(i, what);
    if (v <= 0) {
      throw new IllegalArgumentException(what + " must be positive, got '" + parts.get(i) + "'");
    }
    return v;
  }

  long nonNegativeNanos(int i, String what) {
    long v = nanos(i, what);
    if (v < 0) {
      throw new IllegalArgumentException(what + " must be >= 0, got '" + parts.get(i) + "'");
    }
    return v;
  }

  private long nanos(int i, String what) {
    try {
      return Durations.parseNanos(parts.get(i));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
    }
  }
}
