package dev.tailor.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.TestIndex;
import dev.tailor.lucene.TestQueries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.junit.jupiter.api.Test;

class SearchTimingsTest {

  @Test
  void timesEveryQueryOnBothSearchers() throws Exception {
    try (TestIndex index = TestIndex.build(2_000, 1);
        Scheduler scheduler =
            SchedulerInternals.policy(Scheduler.builder(), "seq").workers(1).build()) {
      List<SearchTimings.Labelled> queries = new ArrayList<>();
      for (TestQueries.Named q : TestQueries.generate(index, 1, 2)) {
        queries.add(new SearchTimings.Labelled(q.category(), q.query()));
      }
      SearchTimings.Comparison c =
          SearchTimings.compare(
              new IndexSearcher(index.reader),
              new TailorSearcher(index.reader, scheduler),
              queries,
              Duration.ZERO,
              3);
      List<SearchTimings.Timed> timed = c.timed();
      assertEquals(queries.size(), timed.size());
      for (int i = 0; i < timed.size(); i++) {
        assertEquals(queries.get(i).category(), timed.get(i).category());
        assertTrue(timed.get(i).baselineNanos() > 0 && timed.get(i).candidateNanos() > 0);
      }
      assertEquals(1, c.warmup().passes(), "a zero warm-up is one pass");
      // Per query on the candidate: one warm-up pass, one run that sizes the batch, then three
      // samples of one to MAX_BATCH runs each.
      long runs = SchedulerInternals.metrics(scheduler).latency().getTotalCount();
      assertTrue(
          runs >= queries.size() * (1 + 1 + 3L)
              && runs <= queries.size() * (1 + 1 + 3L * SearchTimings.MAX_BATCH),
          "runs on the candidate: " + runs);
    }
  }

  @Test
  void aWarmUpPassRunsEveryQueryOnEverySearcher() throws Exception {
    try (TestIndex index = TestIndex.build(1_000, 1);
        Scheduler a = SchedulerInternals.policy(Scheduler.builder(), "seq").workers(1).build();
        Scheduler b = SchedulerInternals.policy(Scheduler.builder(), "seq").workers(1).build()) {
      List<SearchTimings.Labelled> queries = new ArrayList<>();
      for (TestQueries.Named q : TestQueries.generate(index, 1, 2)) {
        queries.add(new SearchTimings.Labelled(q.category(), q.query()));
      }
      SearchTimings.Warmup w =
          SearchTimings.warmUp(
              List.of(new TailorSearcher(index.reader, a), new TailorSearcher(index.reader, b)),
              queries,
              Duration.ofMillis(1));
      assertTrue(w.passes() >= 1);
      assertEquals(
          (long) w.passes() * queries.size(),
          SchedulerInternals.metrics(a).latency().getTotalCount());
      assertEquals(
          (long) w.passes() * queries.size(),
          SchedulerInternals.metrics(b).latency().getTotalCount());
    }
  }

  @Test
  void aShortQueryIsSampledAsARunOfSearches() {
    assertEquals(1, SearchTimings.batch(2_000_000), "a query of 2 ms is one search a sample");
    assertEquals(1, SearchTimings.batch(SearchTimings.MIN_SAMPLE_NANOS));
    assertEquals(10, SearchTimings.batch(100_000), "ten searches of 100 us make a sample");
    assertEquals(SearchTimings.MAX_BATCH, SearchTimings.batch(1_000), "at most MAX_BATCH");
    assertEquals(SearchTimings.MAX_BATCH, SearchTimings.batch(0));
  }

  @Test
  void theMedianIsTheMiddleValue() {
    assertEquals(3, SearchTimings.median(new long[] {9, 1, 3}));
    assertEquals(5, SearchTimings.median(new long[] {5}));
  }
}
