package dev.tailor.fuzz;

import static dev.tailor.fuzz.FuzzFiles.readOrReject;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.UnitWork;
import dev.tailor.measure.WorkloadSpread;
import java.nio.file.Path;

/**
 * Fuzzes the demand profile reader, {@link DemandProfile#read}, under {@link FuzzFiles}'s contract.
 * A profile that reads is then used as the simulator and the table builders use it: each request's
 * speedup curve and unit work, its time on its measured degrees, the workload's spread, and the
 * profile scaled, so that a profile the reader accepts cannot fail a command that loads it.
 *
 * <p>Seeds: {@code ProfileFuzzTestInputs/demandProfile/}.
 */
class ProfileFuzzTest {

  @FuzzTest
  void demandProfile(byte[] data) {
    Path file = FuzzFiles.write("profile", ".json", data);
    DemandProfile profile = readOrReject(file, DemandProfile::read);
    if (profile == null) {
      return;
    }
    int degrees = profile.settings().measuredDegrees();
    for (int i = 0; i < profile.requests().size(); i++) {
      DemandProfile.Request r = profile.requests().get(i);
      r.speedupCurve().at(profile.settings().maxDegree());
      UnitWork work = r.unitWork();
      if (work != null) {
        work.nanosOn(degrees);
      }
      profile.predictedNanos(i);
    }
    if (!profile.requests().isEmpty()) {
      WorkloadSpread.of(profile).describe();
    }
    profile.scaled(2.5);
  }
}
