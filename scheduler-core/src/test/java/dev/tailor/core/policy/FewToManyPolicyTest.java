package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.model.Schedule;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TableSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FewToManyPolicyTest {

  static final long MS = 1_000_000L;

  private final FakeRequest request = new FakeRequest();
  private final FakeSystem system = new FakeSystem();

  /**
   * Load 1: (0, 0, 0), degree 3 at once. Load 2: (0, 50, 0), degree 1 then 3 after 50 ms. Load 3:
   * (0, 100, 50), 1, then 2 at 100 ms, 3 at 150 ms. Load 4: wait 30 ms, then as load 3. Load 5 and
   * up: wait for an exit, then degree 1 for 150 ms.
   */
  static IntervalTable table(long load2RampMillis) {
    IntervalTable.Inputs in =
        new IntervalTable.Inputs(
            "p.json",
            "sha256:" + "0".repeat(64),
            2,
            0,
            6,
            IntervalTable.Rule.paper(6),
            3,
            new int[] {1, 2, 3},
            10 * MS,
            150 * MS,
            0.99,
            5,
            null);
    return new IntervalTable(
        in,
        "2026-11-22T06:00:00Z",
        1,
        List.of(
            new IntervalTable.Row(1, Schedule.ofMillis(0, 0, 0), 0, 0, 3),
            new IntervalTable.Row(2, Schedule.ofMillis(0, load2RampMillis, 0), 0, 0, 2),
            new IntervalTable.Row(3, Schedule.ofMillis(0, 100, 50), 0, 0, 1.5),
            new IntervalTable.Row(4, Schedule.ofMillis(30, 100, 50), 0, 0, 1.2),
            new IntervalTable.Row(5, Schedule.awaitingExit(150 * MS, 150 * MS, 0), 0, 0, 0.5)));
  }

  private Policy fm() {
    return FewToManyPolicy.of(TableSource.fixed(table(50)));
  }

  private void load(int inSystem) {
    system.active = inSystem - 1;
    system.queued = 1;
  }

  @Test
  void admitsAtTheDegreeTheRowStartsWith() {
    Policy fm = fm();
    load(1);
    assertEquals(Admission.start(3), fm.admit(request, system));
    load(2);
    assertEquals(Admission.start(1), fm.admit(request, system));
    load(3);
    assertEquals(Admission.start(1), fm.admit(request, system));
  }

  @Test
  void delaysUntilArrivalPlusTheRowsWait() {
    Policy fm = fm();
    load(4);
    system.now = 10 * MS; // the request arrived at 0
    Admission a = fm.admit(request, system);
    assertSame(Admission.Kind.DELAY, a.kind());
    assertEquals(30 * MS, a.untilNanos());
    system.now = 30 * MS;
    assertEquals(Admission.start(1), fm.admit(request, system));
    // At expiry the load fell to 3, whose row has no wait: it starts.
    system.now = 20 * MS;
    load(3);
    assertEquals(Admission.start(1), fm.admit(request, system));
  }

  @Test
  void waitsForAnExitThenStarts() {
    Policy fm = fm();
    load(9); // 8 running, this one queued
    assertSame(Admission.awaitExit(), fm.admit(request, system));
    assertSame(Admission.awaitExit(), fm.admit(request, system), "nothing exited yet");
    system.active = 7; // one exited; the row for load 8 still says e1, the paper starts it
    assertEquals(Admission.start(1), fm.admit(request, system));
  }

  @Test
  void workConservingStartsWhateverTheRowsWaitAndRampsAsTheRowSays() {
    Policy wc = FewToManyPolicy.workConserving(TableSource.fixed(table(50)));
    assertTrue(wc.spec().startsWith("fm-wc:"), wc.spec());
    load(4); // the row waits 30 ms
    system.now = 10 * MS;
    assertEquals(Admission.start(1), wc.admit(request, system));
    load(9); // the row waits for an exit
    assertEquals(Admission.start(1), wc.admit(request, system));
    load(1);
    assertEquals(Admission.start(3), wc.admit(request, system));
    load(3);
    request.elapsed = 120 * MS;
    request.degree = 1;
    assertEquals(2, wc.degree(request, system), "load 3: past 100 ms, degree 2");
    assertSame(WorkerPreference.HELP_FIRST, wc.workerPreference(system));
  }

  @Test
  void raisesTheDegreeAsTheRunTimePassesTheRowsIntervals() {
    Policy fm = fm();
    load(3);
    long[] elapsedMs = {0, 99, 100, 149, 150, 5_000};
    int[] expected = {1, 1, 2, 2, 3, 3};
    for (int i = 0; i < elapsedMs.length; i++) {
      request.elapsed = elapsedMs[i] * MS;
      request.degree = 1;
      assertEquals(expected[i], fm.degree(request, system), "at " + elapsedMs[i] + " ms");
    }
  }

  @Test
  void readsTheRowForTheCurrentLoadAndNeverLowersTheDegree() {
    Policy fm = fm();
    request.elapsed = 60 * MS;
    request.degree = 1;
    load(2);
    assertEquals(3, fm.degree(request, system), "load 2: past 50 ms, degree 3");
    load(3);
    assertEquals(1, fm.degree(request, system), "load 3: before 100 ms, degree 1");
    request.degree = 3;
    assertEquals(3, fm.degree(request, system), "a higher load never takes threads away");
    load(1);
    request.degree = 1;
    assertEquals(3, fm.degree(request, system), "load fell to 1: everything at once");
  }

  @Test
  void helpsTheOldestFirst() {
    assertSame(WorkerPreference.HELP_FIRST, fm().workerPreference(system));
  }

  @Test
  void isFoundByNameAndSwapsToANewTableButKeepsTheLastGoodOne(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("fm.json");
    table(50).write(file);
    Policy fm = PolicyRegistry.of("fm:" + file);
    assertEquals("fm:" + file, fm.spec());
    TableSource<IntervalTable> source = ((FewToManyPolicy) fm).table();
    try {
      load(2);
      request.elapsed = 60 * MS;
      request.degree = 1;
      assertEquals(3, fm.degree(request, system));

      table(80).write(file); // the nightly rebuild: load 2 now ramps at 80 ms
      assertTrue(source.reload());
      assertEquals(1, fm.degree(request, system));

      java.nio.file.Files.writeString(file, "{ \"format\": \"tailor-table\", \"version\": 1 }");
      assertEquals(false, source.reload(), "a bad file is refused");
      assertEquals(1, fm.degree(request, system), "and the last good table keeps serving");
      assertEquals(Schedule.ofMillis(0, 80, 0), source.current().schedule(2));
      assertEquals(1, fm.tableSwaps(), "one table swapped in, the bad file not");
      assertEquals(1, DegreeCap.of(fm, 2).tableSwaps(), "a wrapped policy's swaps show through");
    } finally {
      fm.close();
    }
    assertFalse(source.isWatching(), "closing the policy stops the watcher it opened");
  }

  @Test
  void closingAPolicyLeavesASourceItWasGivenWatching(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("fm.json");
    table(50).write(file);
    try (TableSource<IntervalTable> source = TableSource.watch(file, IntervalTable::read)) {
      Policy fm = FewToManyPolicy.of(source);
      fm.close();
      assertTrue(source.isWatching(), "the caller owns the source");
      assertEquals(Schedule.ofMillis(0, 50, 0), source.current().schedule(2));
    }
  }

  @Test
  void aSchedulerClosesEveryPolicyItIsGivenHoweverItWasMade(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("fm.json");
    table(50).write(file);
    Scheduler named =
        SchedulerInternals.policy(Scheduler.builder(), "fm:" + file).workers(1).build();
    TableSource<IntervalTable> fromSpec = ((FewToManyPolicy) named.policy()).table();
    named.close();
    assertFalse(fromSpec.isWatching(), "a policy made from a specification is the scheduler's");

    Policy typed = Policies.fewToMany(file);
    Scheduler.builder().policy(typed).workers(1).build().close();
    assertFalse(((FewToManyPolicy) typed).table().isWatching(), "and so is one handed in");
  }

  @Test
  void aMissingOrBadTableIsAClearError(@TempDir Path dir) {
    Path missing = dir.resolve("none.json");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("fm:" + missing));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("expected fm:TABLE.json"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("fm"));
    assertTrue(e.getMessage().contains("expected the interval table's file"), e.getMessage());
  }
}
