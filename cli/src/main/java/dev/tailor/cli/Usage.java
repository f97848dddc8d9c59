package dev.tailor.cli;

import dev.tailor.core.Durations;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Turns what a parser or a study refuses into a usage error, so that the command exits with 2. */
final class Usage {

  private Usage() {}

  /**
   * The value of {@code body}; an {@link IllegalArgumentException} it throws becomes a usage error
   * with its message, after {@code prefix}.
   */
  static <T> T check(CommandSpec spec, String prefix, Supplier<T> body) {
    try {
      return body.get();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), prefix + e.getMessage(), e);
    }
  }

  /** {@link #check(CommandSpec, String, Supplier)} with the bare message. */
  static <T> T check(CommandSpec spec, Supplier<T> body) {
    return check(spec, "", body);
  }

  /** A usage error with {@code message} unless {@code ok}. */
  static void require(CommandSpec spec, boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }

  /** A duration option in nanoseconds, or a usage error naming it. */
  static long duration(CommandSpec spec, String option, String text) {
    return check(spec, option + ": ", () -> Durations.parseNanos(text));
  }

  /** A duration option that may be zero but not negative, or a usage error naming it. */
  static long nonNegative(CommandSpec spec, String option, String text) {
    try {
      long n = Durations.parseNanos(text);
      if (n >= 0) {
        return n;
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new ParameterException(
        spec.commandLine(),
        option + " must be a duration >= 0 such as 0ms or 2ms, got '" + text + "'");
  }
}
