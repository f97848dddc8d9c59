package dev.tailor.sim;

import dev.tailor.core.json.JsonFields;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Whether a {@link Calibration} belongs with a demand profile, as {@link Calibration#check} and
 * {@link Calibration#forProfile} decide: a calibration holds only on the machine it was measured on
 * (cores, operating system, Java), its per-query part only for the index and trace it was measured
 * against, and a profile that was generated rather than measured takes its machine part alone.
 *
 * <p>Apart from the calibration because it compares two records taken at different times and
 * places, and explains in words what a user should do about a mismatch; the calibration itself is
 * only what was measured.
 */
final class CalibrationCheck {

  private CalibrationCheck() {}

  /** What {@link Calibration#check} returns and throws, for calibration {@code c}. */
  static String check(Calibration c, Path file, DemandProfile profile) throws IOException {
    JsonFields fields = new JsonFields(file);
    DemandProfile.Environment e = profile.environment();
    Calibration.Machine machine = c.machine();
    if (!measured(profile)) {
      return file
          + ": the profile was not measured (a given or parametric workload), so only the"
          + " calibration's machine part is used"
          + (c.model() == null
              ? " (dispatch, completion and send lag; it has no machine model)"
              : "");
    }
    if (machine.cores() != e.cores()) {
      throw fields.problem(
          "machine.cores",
          "the calibration was measured on "
              + machine.cores()
              + " cores, the profile on "
              + e.cores()
              + ": another machine");
    }
    if (!machine.os().equals(e.os())) {
      throw fields.problem(
          "machine.os",
          "the calibration was measured on "
              + machine.os()
              + ", the profile on "
              + e.os()
              + ": another machine");
    }
    // Version 1 calibrations and some profiles record no Java: then there is nothing to compare.
    if (machine.java() != null && e.jvm() != null && !javaOf(e.jvm()).equals(machine.java())) {
      throw fields.problem(
          "machine.java",
          "the calibration was measured on Java "
              + machine.java()
              + ", the profile on Java "
              + e.jvm()
              + ": another version");
    }
    Calibration.Workload workload = c.workload();
    if (workload == null) {
      return null; // the machine part alone: no workload to compare
    }
    if (!workload.index().equals(e.index()) || !workload.trace().equals(e.trace())) {
      throw fields.problem(
          "workload",
          "the calibration was measured on "
              + workload.index()
              + " with "
              + workload.trace()
              + ", the profile is of "
              + e.index()
              + " with "
              + e.trace()
              + ": another workload");
    }
    if (isBefore(c.createdAt(), e.takenAt())) {
      return file
          + ": the calibration ("
          + c.createdAt()
          + ") is older than the profile ("
          + e.takenAt()
          + "): derive it again from a replay of this profile";
    }
    return null;
  }

  /**
   * Whether the profile was measured: it names its index and when it was taken. A generated one
   * (parametric, log-normal, auto's reservoir) says {@code generated} or {@code online} instead.
   */
  static boolean measured(DemandProfile profile) {
    DemandProfile.Environment e = profile.environment();
    if (e == null || e.takenAt() == null || e.index() == null) {
      return false;
    }
    try {
      DateTimeFormatter.ISO_DATE_TIME.parse(e.takenAt());
      return true;
    } catch (DateTimeParseException ex) {
      return false;
    }
  }

  /** A profile's JVM version ({@code Runtime.version()}, e.g. 25.0.3+9-LTS) as Java's: 25.0.3. */
  private static String javaOf(String jvm) {
    int plus = jvm.indexOf('+');
    return plus < 0 ? jvm : jvm.substring(0, plus);
  }

  private static boolean isBefore(String a, String b) {
    try {
      return Instant.parse(a).isBefore(Instant.parse(b));
    } catch (DateTimeParseException ex) {
      return false; // a profile with a local time: the comparison is not known
    }
  }
}
