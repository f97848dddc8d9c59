package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.junit.jupiter.api.Test;

class SearchTimingsTest {

  @Test
  void timesEveryQueryOnBothSearchers() throws Exception {
    try (TestIndex index = TestIndex.build(2_000, 1);
        Scheduler scheduler = Scheduler.builder().policy("seq").workers(1).build()) {
      List<SearchTimings.Labelled> queries = new ArrayList<>();
      for (TestQueries.Named q : TestQueries.generate(index, 1, 2)) {
        queries.add(new SearchTimings.Labelled(q.category(), q.query()));
      }
      List<SearchTimings.Timed> timed =
          SearchTimings.compare(
              new IndexSearcher(index.reader),
              new TailorSearcher(index.reader, scheduler),
              queries,
              1,
              3);
      assertEquals(queries.size(), timed.size());
      for (int i = 0; i < timed.size(); i++) {
        assertEquals(queries.get(i).category(), timed.get(i).category());
        assertTrue(timed.get(i).baselineNanos() > 0 && timed.get(i).candidateNanos() > 0);
      }
      assertEquals(
          queries.size() * (1 + 3),
          scheduler.metrics().latency().getTotalCount(),
          "each query ran warm-up and repetitions on the candidate");
    }
  }

  @Test
  void theMedianIsTheMiddleValue() {
    assertEquals(3, SearchTimings.median(new long[] {9, 1, 3}));
    assertEquals(5, SearchTimings.median(new long[] {5}));
  }
}
