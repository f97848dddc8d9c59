package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Predictor;
import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.Tuning;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A predictor set on the searcher reaches the policy. */
class PredictorTest {

  private static TestIndex index;

  @BeforeAll
  static void build() throws IOException {
    index = TestIndex.build(2_000, 5);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  /** Runs every request sequentially and records what it sees of each at admission. */
  private static final class Recording implements Policy {
    final List<Long> predicted = new CopyOnWriteArrayList<>();
    final List<Boolean> longFlags = new CopyOnWriteArrayList<>();

    @Override
    public Admission admit(RequestView request, SystemView system) {
      predicted.add(request.predictedSequentialNanos());
      longFlags.add(request.isLong());
      return Admission.start(1);
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return 1;
    }

    @Override
    public String spec() {
      return "recording";
    }
  }

  private static Scheduler scheduler(Policy policy) {
    return Scheduler.builder()
        .policy(policy)
        .workers(2)
        .tuning(Tuning.defaults().withLongRequestThreshold(Duration.ofMillis(80)))
        .build();
  }

  private static Query term() {
    return new TermQuery(new Term("body", index.vocabulary.get(0)));
  }

  @Test
  void thePredictionIsVisibleToThePolicyAtAdmission() throws IOException {
    Recording policy = new Recording();
    try (Scheduler scheduler = scheduler(policy)) {
      TailorSearcher searcher = new TailorSearcher(index.reader, scheduler);
      Predictor<Query> predictor = q -> q instanceof TermQuery ? 100_000_000L : 1_000L;
      searcher.setPredictor(predictor);
      searcher.search(term(), new TopScoreDocCollectorManager(10, 1000));
      searcher.count(new org.apache.lucene.search.MatchAllDocsQuery());
      assertEquals(List.of(100_000_000L, 1_000L), policy.predicted);
      // The core flags a request long from its prediction once it runs (at the next tick), not yet
      // at admission; what reaches admission is the prediction itself.
    }
  }

  @Test
  void withoutAPredictorNothingIsPredicted() throws IOException {
    Recording policy = new Recording();
    try (Scheduler scheduler = scheduler(policy)) {
      TailorSearcher searcher = new TailorSearcher(index.reader, scheduler);
      searcher.search(term(), new TopScoreDocCollectorManager(10, 1000));
      assertEquals(List.of(RequestView.UNKNOWN), policy.predicted);
      assertFalse(policy.longFlags.get(0));
    }
  }

  @Test
  void aGivenPredictionIsKeptAndAThrowingPredictorPredictsNothing() throws IOException {
    Recording policy = new Recording();
    try (Scheduler scheduler = scheduler(policy)) {
      TailorSearcher searcher = new TailorSearcher(index.reader, scheduler);
      searcher.setPredictor(q -> 5L);
      searcher.search(
          term(), new TopScoreDocCollectorManager(10, 1000), RequestAttributes.predicted(7L), null);
      searcher.setPredictor(
          q -> {
            throw new IllegalStateException("broken predictor");
          });
      searcher.search(term(), new TopScoreDocCollectorManager(10, 1000));
      assertEquals(List.of(7L, RequestView.UNKNOWN), policy.predicted);
      assertTrue(searcher.getPredictor() != null);
    }
  }
}
