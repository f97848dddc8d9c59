package dev.tailor.core.policy;

import dev.tailor.core.Durations;

/** Splits and reads the comma-separated arguments of a policy specification. */
final class SpecArgs {

  private final String[] parts;

  private SpecArgs(String[] parts) {
    this.parts = parts;
  }

  /**
   * Splits {@code args} and checks the count.
   *
   * @throws IllegalArgumentException if there are fewer than {@code min} or more than {@code max}
   */
  static SpecArgs split(String args, int min, int max) {
    String[] parts = args.isEmpty() ? new String[0] : args.split(",", -1);
    for (int i = 0; i < parts.length; i++) {
      parts[i] = parts[i].trim();
    }
    if (parts.length < min || parts.length > max) {
      String expected = min == max ? Integer.toString(min) : min + " to " + max;
      throw new IllegalArgumentException(
          "expected " + expected + " argument(s), got " + parts.length);
    }
    return new SpecArgs(parts);
  }

  int size() {
    return parts.length;
  }

  int positiveInt(int i, String what) {
    try {
      int v = Integer.parseInt(parts[i]);
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        what + " must be a whole number >= 1, got '" + parts[i] + "'");
  }

  long positiveNanos(int i, String what) {
    long v;
    try {
      v = Durations.parseNanos(parts[i]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
    }
    if (v <= 0) {
      throw new IllegalArgumentException(what + " must be positive, got '" + parts[i] + "'");
    }
    return v;
  }

  long nonNegativeNanos(int i, String what) {
    long v;
    try {
      v = Durations.parseNanos(parts[i]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
    }
    if (v < 0) {
      throw new IllegalArgumentException(what + " must be >= 0, got '" + parts[i] + "'");
    }
    return v;
  }
}
