package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.Calibration;
import dev.tailor.sim.MachineModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --calibration}: a calibration of another workload is refused unless its machine part alone
 * is asked for.
 */
class CalibrationOptionTest {

  @TempDir Path tmp;

  @Test
  void anotherWorkloadsCalibrationServesWithItsMachinePartAloneWhenAskedFor() throws IOException {
    long[] zero = new long[Calibration.PERCENTILES];
    long[] ms = new long[Calibration.PERCENTILES];
    Arrays.fill(ms, 1_000_000L);
    Calibration measured =
        new Calibration(
            Calibration.FORMAT,
            Calibration.VERSION,
            "2026-01-01T00:00:00Z",
            new Calibration.Machine("vm", 2, "CPU", "amd64", "25.0.3", "Linux amd64"),
            new Calibration.Workload("index-a", "trace-a", "2026-01-01T00:00:00Z"),
            "test",
            1.5,
            ms,
            zero,
            zero,
            new MachineModel(
                new MachineModel.Stalls(1_000_000_000L, 1, 0, ms),
                new MachineModel.GcPauses(1_000, 1, ms),
                new double[] {1, 1.2},
                new long[] {100, 100}),
            null,
            null,
            false);
    Path file = tmp.resolve("c.json");
    measured.write(file);
    DemandProfile other =
        DemandProfile.of(
            new DemandProfile.Environment(
                "index-b",
                "test",
                10,
                "trace-b",
                2,
                "25.0.3+9-LTS",
                "Linux amd64",
                "2025-12-31T00:00:00Z"),
            new DemandProfile.Settings(1, 1, 1, 1),
            true,
            List.of(
                new DemandProfile.Request(
                    "r",
                    null,
                    "q",
                    1_000_000L,
                    new long[] {1_000_000L},
                    new double[] {1.0},
                    new double[0],
                    new DemandProfile.Features("test", 1, new long[0], 0))));
    CalibrationOption option = new CalibrationOption();
    option.file = file;
    StringWriter err = new StringWriter();
    IOException e =
        assertThrows(IOException.class, () -> option.load(other, new PrintWriter(err, true)));
    assertTrue(e.getMessage().contains("another workload"), e.getMessage());

    option.machineOnly = true;
    Calibration c = option.load(other, new PrintWriter(err, true));
    assertNull(c.workload(), "no workload");
    assertEquals(1, c.runScale(), "no run scale");
    assertEquals(1.2, c.model().coRunAt(2), 1e-9, "the machine model kept");
    assertEquals(1_000_000L, c.dispatchNanos()[50], "the wake-ups kept");
  }
}
