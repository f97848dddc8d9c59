package dev.tailor.opensearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.tailor.core.RequestContext;
import dev.tailor.core.policy.RequestView;
import dev.tailor.opensearch.Verdict.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.search.deciders.ConcurrentSearchDecision;
import org.opensearch.search.deciders.ConcurrentSearchDecision.DecisionStatus;
import org.opensearch.search.deciders.ConcurrentSearchRequestDecider;
import org.opensearch.search.internal.SearchContext;
import org.opensearch.search.internal.ShardSearchRequest;
import org.opensearch.test.IndexSettingsModule;

/**
 * The decider on one node, without a cluster: its choices follow the measured cost and the node's
 * load, its prediction reaches the Tailor request, and a verdict reaches only its own query phase.
 */
class NodeDeciderTest {

  private static final long MS = 1_000_000;
  private static final IndexSettings DOCS =
      IndexSettingsModule.newIndexSettings("docs", Settings.EMPTY);

  private final ThreadContext threadContext = new ThreadContext(Settings.EMPTY);
  private final NodeStats stats = new NodeStats();
  private final LiveScheduler live =
      new LiveScheduler("fixed:2", 4, 10, Executors.defaultThreadFactory(), stats);
  private final NodeDecider decider = new NodeDecider(Settings.EMPTY, live, stats);
  private final QueryPhaseListener listener =
      new QueryPhaseListener(live, decider, stats, threadContext);

  @AfterEach
  void close() {
    live.close();
  }

  /** A query phase of {@code query}, concurrent as the verdict says, as OpenSearch would run it. */
  private static SearchContext phase(QueryBuilder query, boolean concurrent) {
    ShardSearchRequest request = mock(ShardSearchRequest.class);
    when(request.source()).thenReturn(new SearchSourceBuilder().query(query));
    SearchContext ctx = mock(SearchContext.class);
    when(ctx.request()).thenReturn(request);
    when(ctx.shouldUseConcurrentSearch()).thenReturn(concurrent);
    return ctx;
  }

  /**
   * Decides {@code query} as OpenSearch does and runs its query phase, costing {@code tookNanos}.
   */
  private Verdict search(QueryBuilder query, long tookNanos) {
    ConcurrentSearchRequestDecider d = decider.create(DOCS).orElseThrow();
    d.evaluateForQuery(query, DOCS);
    d.evaluateForQuery(QueryBuilders.matchAllQuery(), DOCS); // a child: adds nothing
    ConcurrentSearchDecision decision = d.getConcurrentSearchDecision();
    assertTrue(decision.getDecisionReason().startsWith("tailor "), decision.getDecisionReason());
    Verdict v = ((TailorDecider) d).verdict();
    assertEquals(v.concurrent(), decision.getDecisionStatus() == DecisionStatus.YES);
    SearchContext ctx = phase(query, v.concurrent());
    listener.onPreQueryPhase(ctx);
    listener.onQueryPhase(ctx, tookNanos);
    return v;
  }

  @Test
  void anUnseenQueryGoesConcurrentThenItsMeasuredCostDecides() {
    QueryBuilder cheap = QueryBuilders.termQuery("id", "doc-1");
    QueryBuilder dear = QueryBuilders.matchQuery("body", "the rain");
    Verdict unseen = search(dear, 0);
    assertEquals(Reason.UNSEEN, unseen.reason());
    assertTrue(unseen.concurrent(), "an unseen query goes concurrent");
    // Its Tailor request ran (degree 1 work on the test's thread) and recorded its busy time:
    // microseconds, or more where the machine preempted the thread, so read back, not assumed.
    long first = decider.predictNanos("docs", dear);
    assertTrue(first >= 0, "its run's cost was recorded");
    decider.measured(new NodeDecider.Pending(dear, QueryCosts.key("docs", dear), null), 40 * MS);
    Verdict v = search(dear, 0);
    assertEquals(Reason.LONG, v.reason());
    assertEquals(
        (first / 1000 * 3 + 40 * MS / 1000) / 4 * 1000,
        v.predictedNanos(),
        "a quarter of the way from its first cost to 40 ms");
    // A query whose one recorded cost is under min_cost (1 ms) runs sequentially. A sequential run
    // records OpenSearch's own time for the phase.
    decider.measured(new NodeDecider.Pending(cheap, QueryCosts.key("docs", cheap), null), MS / 2);
    Verdict brief = search(cheap, 0);
    assertEquals(Reason.SHORT, brief.reason(), "its measured cost is under 1 ms");
    assertEquals(MS / 2, brief.predictedNanos());
  }

  @Test
  void choicesFollowTheNodesLoad() throws Exception {
    QueryBuilder q = QueryBuilders.matchQuery("body", "heron");
    assertEquals(Reason.UNSEEN, decider.decide("docs", q).reason());
    // Three sequential phases run on the node: one of four threads idle, no second for a request.
    List<SearchContext> running = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      SearchContext ctx = phase(QueryBuilders.termQuery("id", "doc-" + i), false);
      running.add(ctx);
      Thread t = new Thread(() -> listener.onPreQueryPhase(ctx)); // the phase's own thread
      t.start();
      t.join();
    }
    assertEquals(3, stats.sequentialRunning.get());
    Verdict busy = decider.decide("docs", q);
    assertEquals(Reason.BUSY, busy.reason());
    assertEquals(1, busy.idleThreads());
    stats.sequentialRunning.addAndGet(-3); // their threads ended them (not shown here)
    assertEquals(Reason.UNSEEN, decider.decide("docs", q).reason(), "idle again");
    Map<String, Object> decided = stats.decider(true, MS);
    assertEquals(2L, decided.get("concurrent"));
    assertEquals(1L, decided.get("sequential"));
    assertEquals(1L, ((Map<?, ?>) decided.get("by_reason")).get("busy"));
    assertEquals(3, ((List<?>) decided.get("recent")).size());
  }

  @Test
  void thePredictionReachesTheTailorRequest() {
    QueryBuilder q = QueryBuilders.matchQuery("body", "lamps");
    decider.measured(new NodeDecider.Pending(q, QueryCosts.key("docs", q), null), 12 * MS);
    Verdict v = decider.decide("docs", q);
    SearchContext ctx = phase(q, v.concurrent());
    listener.onPreQueryPhase(ctx);
    RequestView view = listener.current().entered().context().view();
    assertEquals(12 * MS, view.predictedSequentialNanos());
    listener.onQueryPhase(ctx, 0);
  }

  @Test
  void aVerdictReachesOnlyTheQueryPhaseOfItsOwnQuery() {
    QueryBuilder decided = QueryBuilders.matchQuery("body", "bread");
    decider.decide("docs", decided);
    // Another request's phase on this thread (its parse never asked the decider): not its verdict.
    SearchContext other = phase(QueryBuilders.matchQuery("body", "bread"), true);
    assertNull(decider.take(other), "an equal query of another request is not the same request");
    assertNull(decider.take(phase(decided, true)), "a verdict is taken once, or dropped");
    decider.decide("docs", decided);
    NodeDecider.Pending p = decider.take(phase(decided, true));
    assertNotNull(p);
    assertSame(decided, p.query());
  }

  @Test
  void switchedOffItDecidesNothing() {
    NodeDecider off =
        new NodeDecider(
            Settings.builder().put("tailor.decider.enabled", false).build(), live, stats);
    assertTrue(off.create(DOCS).isEmpty());
    assertTrue(decider.create(DOCS).isPresent());
  }

  @Test
  void aRequestOnAnotherThreadSeesNoVerdict() throws Exception {
    decider.decide("docs", QueryBuilders.matchAllQuery());
    AtomicLong seen = new AtomicLong(-1);
    Thread t =
        new Thread(
            () ->
                seen.set(decider.take(phase(QueryBuilders.matchAllQuery(), true)) == null ? 0 : 1));
    t.start();
    t.join();
    assertEquals(0, seen.get());
    assertNull(RequestContext.current());
  }
}
