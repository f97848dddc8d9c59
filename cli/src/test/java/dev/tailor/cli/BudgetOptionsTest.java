package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve}'s budget options: what they set, and bad values named. */
class BudgetOptionsTest {

  private static BudgetOptions options(String budget, String period, Path beside) {
    BudgetOptions o = new BudgetOptions();
    o.budget = budget;
    o.budgetMin = 1;
    o.budgetPeriod = period;
    o.indexBeside = beside;
    return o;
  }

  @Test
  void anElasticBudgetStartsAtEveryWorker() {
    Scheduler.Builder b = Scheduler.builder().workers(3);
    options("utilization-range:0.5,0.9", "2ms", null).apply(b);
    try (Scheduler s = b.build()) {
      assertEquals(3, s.budget());
      assertEquals(3, s.workers());
      assertEquals(0, SchedulerInternals.backgroundCores(s).returned());
    }
  }

  @Test
  void badValuesNameTheirOption(@TempDir Path dir) {
    IllegalArgumentException spec =
        assertThrows(
            IllegalArgumentException.class,
            () -> options("elastic", "1ms", null).apply(Scheduler.builder()));
    assertTrue(
        spec.getMessage().startsWith("--budget: bad budget policy 'elastic'"), spec.getMessage());
    IllegalArgumentException period =
        assertThrows(
            IllegalArgumentException.class,
            () -> options("delay-range", "soon", null).apply(Scheduler.builder()));
    assertTrue(period.getMessage().startsWith("--budget-min/--budget-period"), period.getMessage());
    IllegalArgumentException beside =
        assertThrows(
            IllegalArgumentException.class,
            () -> options(null, "1ms", dir.resolve("docs.txt")).apply(Scheduler.builder()));
    assertTrue(beside.getMessage().contains("--index-beside needs --budget"), beside.getMessage());
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                options("delay-range", "1ms", dir.resolve("none.txt")).apply(Scheduler.builder()));
    assertTrue(missing.getMessage().contains("is not a file"), missing.getMessage());
  }

  @Test
  void withoutIndexBesideNothingRuns() throws Exception {
    Scheduler.Builder b = Scheduler.builder().workers(2);
    BudgetOptions o = options("utilization-range", "1ms", null);
    o.apply(b);
    try (Scheduler s = b.build()) {
      assertNull(o.startBeside(s, new StandardAnalyzer(), new PrintWriter(new StringWriter())));
    }
  }
}
