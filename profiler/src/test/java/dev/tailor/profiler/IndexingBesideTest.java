package dev.tailor.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.corpora.linedocs.LineDocReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Line documents indexed beside search: counted as they go, stopped once. */
class IndexingBesideTest {

  @Test
  void documentsIndexedBesideSearchAreCountedAsTheyGo(@TempDir Path dir) throws Exception {
    Path docs = dir.resolve("docs.txt");
    StringBuilder text = new StringBuilder(LineDocReader.HEADER + "\ttitle\tdate\tbody\n");
    for (int i = 0; i < 50; i++) {
      text.append("t").append(i).append("\t2026-01-01\tsome words ").append(i).append('\n');
    }
    Files.writeString(docs, text);
    List<String> log = new ArrayList<>();
    try (Scheduler s =
        SchedulerInternals.elasticBudget(
                Scheduler.builder().workers(2),
                BudgetPolicy.of("utilization-range"),
                1,
                Duration.ofMillis(1))
            .build()) {
      IndexingBeside beside = IndexingBeside.start(docs, s, new StandardAnalyzer(), log::add);
      // Idle, the budget shrinks to one thread within a few periods and the other core indexes.
      long guard = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (beside.indexed() == 0 && System.nanoTime() < guard) {
        Thread.sleep(5);
      }
      assertTrue(beside.indexed() > 0, "indexing beside an idle search never started");
      beside.close();
      long after = beside.indexed();
      beside.close(); // a second stop does nothing
      assertEquals(after, beside.indexed());
      assertEquals(2, log.size(), log.toString());
      assertTrue(log.get(1).contains("documents beside search"), log.toString());
    }
  }
}
