package dev.tailor.fuzz;

import static dev.tailor.fuzz.FuzzFiles.readOrReject;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tailor.core.model.Schedule;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import java.nio.file.Path;

/**
 * Fuzzes the three table readers, {@link IntervalTable#read}, {@link ThresholdTable#read} and
 * {@link TargetTable#read}, under {@link FuzzFiles}'s contract. A table that reads is then asked
 * what a policy asks it online, at every load and around its edges, so that a table the reader
 * accepts cannot fail the policy that loads it.
 *
 * <p>Seeds: {@code TableFuzzTestInputs/<method>/}, valid tables of each kind and version.
 */
class TableFuzzTest {

  @FuzzTest
  void intervalTable(byte[] data) {
    Path file = FuzzFiles.write("interval-table", ".json", data);
    IntervalTable table = readOrReject(file, IntervalTable::read);
    if (table == null) {
      return;
    }
    int loads = table.rows().size();
    for (int q = 0; q <= loads + 1; q++) {
      Schedule s = table.schedule(q);
      s.startDegree();
      s.degreeAt(Long.MAX_VALUE);
      s.pairs();
    }
    table.toString();
  }

  @FuzzTest
  void thresholdTable(byte[] data) {
    Path file = FuzzFiles.write("threshold-table", ".json", data);
    ThresholdTable table = readOrReject(file, ThresholdTable::read);
    if (table == null) {
      return;
    }
    for (int q = 0; q <= table.rows().size() + 1; q++) {
      table.thresholdNanos(q);
    }
    table.thresholdNanos(Integer.MAX_VALUE);
    table.toString();
  }

  @FuzzTest
  void targetTable(byte[] data) {
    Path file = FuzzFiles.write("target-table", ".json", data);
    TargetTable table = readOrReject(file, TargetTable::read);
    if (table == null) {
      return;
    }
    for (TargetTable.Row row : table.rows()) {
      long target = table.targetNanos(row.upToLongThreads());
      table.degreeFor(target, target);
      table.degreeFor(Long.MAX_VALUE, target);
      table.degreeFor(table.longThresholdNanos(), 1);
    }
    table.targetNanos(0);
    table.targetNanos(TargetTable.INFINITE);
    table.withTargets(table.targetsNanos());
    table.toString();
  }
}
