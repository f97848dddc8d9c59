package dev.tailor.core.table;

/**
 * The checks a table's constructor makes of its values, each failing with an {@link
 * IllegalArgumentException} whose message reads {@code PATH: WHAT}: the field's path in the table
 * file (e.g. {@code rows[3].intervalsNanos[2]}), what was expected and the value found. A reader
 * prefixes the file ({@link TableFields#invalid}); a table built in memory reports the same path.
 */
final class Bounds {

  private Bounds() {}

  /** Fails with {@code path: what} unless {@code ok}. */
  static void require(boolean ok, String path, String what) {
    if (!ok) {
      throw new IllegalArgumentException(path + ": " + what);
    }
  }

  /** {@code value} is at least {@code min}. */
  static void atLeast(String path, long value, long min) {
    require(value >= min, path, "must be >= " + min + ", got " + value);
  }

  /** {@code value} is at most {@code bound}, which {@code boundName} names, e.g. a field. */
  static void atMost(String path, long value, long bound, String boundName) {
    require(value <= bound, path, "must be <= " + boundName + " (" + bound + "), got " + value);
  }

  /** {@code value} is finite and at least 0. */
  static void nonNegative(String path, double value) {
    require(
        Double.isFinite(value) && value >= 0, path, "must be a finite number >= 0, got " + value);
  }

  /** {@code value} is finite and above 0. */
  static void positive(String path, double value) {
    require(Double.isFinite(value) && value > 0, path, "must be a finite number > 0, got " + value);
  }
}
