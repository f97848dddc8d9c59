package dev.tailor.opensearch;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.search.SearchType;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.plugins.Plugin;
import org.opensearch.search.MockSearchService;
import org.opensearch.search.SearchHit;
import org.opensearch.search.sort.SortBuilders;
import org.opensearch.search.sort.SortOrder;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.OpenSearchIntegTestCase.ClusterScope;
import org.opensearch.test.OpenSearchIntegTestCase.Scope;
import org.opensearch.transport.client.Client;

/**
 * The plugin in a real cluster of three nodes in this JVM (real transport over 127.0.0.1): search
 * results equal OpenSearch's own sequential ones under six policies, helpers really run slices, a
 * bad policy is refused, and neither policy swaps, a new thread budget nor a node restart under a
 * concurrent search load loses a request.
 */
@ClusterScope(
    scope = Scope.TEST,
    numDataNodes = 3,
    numClientNodes = 0,
    supportsDedicatedMasters = false)
public class TailorPluginTests extends OpenSearchIntegTestCase {

  private static final String INDEX = "docs";
  private static final int BATCHES = 8; // one refresh each: several segments per shard, unmerged
  private static final int DOCS_PER_BATCH = 60;

  /** Policies that need no table file; each must leave every result as it was. */
  private static final List<String> POLICIES =
      List.of("seq", "fixed:2", "steal-first", "rampup:1ms,3", "adaptive", "fixed:3@admit-first");

  @Override
  protected Collection<Class<? extends Plugin>> nodePlugins() {
    return List.of(TailorPlugin.class);
  }

  /**
   * The framework's random mock plugins, without its mock search service: the test framework builds
   * that service without the plugins' concurrent-search deciders (OpenSearch 3.8's {@code
   * MockNode.newSearchService}), so a run that drew it would never ask Tailor's decider.
   */
  @Override
  protected Collection<Class<? extends Plugin>> getMockPlugins() {
    List<Class<? extends Plugin>> mocks = new ArrayList<>(super.getMockPlugins());
    mocks.remove(MockSearchService.TestPlugin.class);
    return mocks;
  }

  @Override
  protected Settings nodeSettings(int nodeOrdinal) {
    return Settings.builder()
        .put(super.nodeSettings(nodeOrdinal))
        .put("search.concurrent_segment_search.mode", "all")
        .put("search.concurrent.max_slice_count", 4)
        .put("tailor.workers", 2)
        .build();
  }

  /**
   * One cluster for every check (a cluster of three nodes takes most of this test's time to start
   * on a small machine): results under each policy, the explanation per request, a refused policy,
   * then swaps, a resize and a restart under load.
   */
  public void testResultsSwapsAndARestart() throws Exception {
    indexText();
    List<QueryBuilder> queries = queries();
    resultsAreOpenSearchsOwnUnderEveryPolicy(queries);
    theDeciderUnderModeAuto(queries);
    policySwapsAndARestartUnderLoadLoseNoRequest(queries);
  }

  /**
   * Under mode {@code auto} Tailor's decider decides every shard request: results stay OpenSearch's
   * own under every policy; a query's measured cost then decides (a cut above every cost sends all
   * seen queries sequential, a zero cut all of them concurrent while threads are idle); bad
   * settings are refused and leave the node as it was; switched off, OpenSearch's own rule decides
   * again.
   */
  private void theDeciderUnderModeAuto(List<QueryBuilder> queries) {
    setConcurrentMode("none");
    List<String> expected = new ArrayList<>();
    for (QueryBuilder q : queries) {
      expected.add(result(client(), q));
    }
    setConcurrentMode("auto");
    for (String policy : POLICIES) {
      setPolicy(policy);
      long decidedBefore = decided("concurrent") + decided("sequential");
      for (int i = 0; i < queries.size(); i++) {
        assertEquals(
            "auto, " + policy + ": " + queries.get(i),
            expected.get(i),
            result(client(), queries.get(i)));
      }
      long decidedAfter = decided("concurrent") + decided("sequential");
      assertTrue(
          policy
              + ": the decider decided every shard request: "
              + decidedBefore
              + " then "
              + decidedAfter
              + " "
              + nodeStats(),
          decidedAfter >= decidedBefore + queries.size());
    }
    for (Map<String, Object> node : nodeStats()) {
      Map<?, ?> decider = (Map<?, ?>) node.get("decider");
      for (Object line : (List<?>) decider.get("recent")) {
        String why = (String) ((Map<?, ?>) line).get("why");
        assertTrue(why, why.matches("(short|busy|long|unseen): .*"));
      }
    }

    // Every query has run: a cut above every cost sends them all sequential, without Tailor.
    updateSettings(Settings.builder().put("tailor.decider.min_cost", "1h"));
    long shortBefore = decidedBy("short");
    long completedBefore = sum("requests", "completed");
    for (int i = 0; i < queries.size(); i++) {
      assertEquals(expected.get(i), result(client(), queries.get(i)));
    }
    assertTrue("seen queries are short", decidedBy("short") >= shortBefore + queries.size());
    assertEquals("no request went through Tailor", completedBefore, sum("requests", "completed"));
    // A zero cut: every seen query is long enough; with threads idle they go concurrent.
    updateSettings(Settings.builder().put("tailor.decider.min_cost", "0ms"));
    long longBefore = decidedBy("long");
    for (int i = 0; i < queries.size(); i++) {
      assertEquals(expected.get(i), result(client(), queries.get(i)));
    }
    assertTrue("seen queries are long", decidedBy("long") >= longBefore + queries.size());
    assertTrue("and ran through Tailor", sum("requests", "completed") > completedBefore);

    // Bad input is refused, naming the setting, and the node keeps what it had.
    RuntimeException unknown =
        expectThrows(
            RuntimeException.class,
            () -> updateSettings(Settings.builder().put("tailor.decider.min_cots", "5ms")));
    assertTrue(unknown.getMessage(), unknown.getMessage().contains("tailor.decider.min_cots"));
    RuntimeException badCost =
        expectThrows(
            RuntimeException.class,
            () -> updateSettings(Settings.builder().put("tailor.decider.min_cost", "fast")));
    assertTrue(badCost.getMessage(), badCost.getMessage().contains("tailor.decider.min_cost"));
    RuntimeException noWorkers =
        expectThrows(
            RuntimeException.class,
            () -> updateSettings(Settings.builder().put("tailor.workers", 0)));
    assertTrue(noWorkers.getMessage(), noWorkers.getMessage().contains("tailor.workers"));
    IllegalArgumentException clairvoyant =
        expectThrows(IllegalArgumentException.class, () -> setPolicy("oracle:50ms"));
    assertTrue(clairvoyant.getMessage(), clairvoyant.getMessage().contains("clairvoyant"));
    for (Map<String, Object> node : nodeStats()) {
      Map<?, ?> decider = (Map<?, ?>) node.get("decider");
      assertEquals(0.0, ((Number) decider.get("min_cost_ms")).doubleValue(), 0.0);
      assertEquals(POLICIES.get(POLICIES.size() - 1), node.get("policy"));
      assertEquals(2, ((Number) node.get("workers")).intValue());
    }

    // Switched off: OpenSearch's own rule (no aggregations: sequential), and no decisions.
    updateSettings(Settings.builder().put("tailor.decider.enabled", false));
    long decided = decided("concurrent") + decided("sequential");
    long unscheduledBefore = sum("requests", "unscheduled");
    assertEquals(expected.get(0), result(client(), queries.get(0)));
    assertEquals(decided, decided("concurrent") + decided("sequential"));
    assertTrue(sum("requests", "unscheduled") > unscheduledBefore);
    updateSettings(
        Settings.builder().putNull("tailor.decider.enabled").putNull("tailor.decider.min_cost"));
    setConcurrentMode("all");

    // Tailor switched off under mode all: OpenSearch's own concurrent search, on its own pool.
    updateSettings(Settings.builder().put("tailor.enabled", false));
    long bypassedBefore = sum("requests", "bypassed");
    long completedOff = sum("requests", "completed");
    for (int i = 0; i < queries.size(); i++) {
      assertEquals(
          "tailor.enabled off: " + queries.get(i),
          expected.get(i),
          result(client(), queries.get(i)));
    }
    assertTrue(sum("requests", "bypassed") >= bypassedBefore + queries.size());
    assertEquals(completedOff, sum("requests", "completed"));
    updateSettings(Settings.builder().putNull("tailor.enabled"));
  }

  private long decided(String field) {
    long total = 0;
    for (Map<String, Object> node : nodeStats()) {
      total += ((Number) ((Map<?, ?>) node.get("decider")).get(field)).longValue();
    }
    return total;
  }

  private long decidedBy(String reason) {
    long total = 0;
    for (Map<String, Object> node : nodeStats()) {
      Map<?, ?> decider = (Map<?, ?>) node.get("decider");
      total += ((Number) ((Map<?, ?>) decider.get("by_reason")).get(reason)).longValue();
    }
    return total;
  }

  private void updateSettings(Settings.Builder settings) {
    assertAcked(client().admin().cluster().prepareUpdateSettings().setPersistentSettings(settings));
  }

  private void resultsAreOpenSearchsOwnUnderEveryPolicy(List<QueryBuilder> queries) {

    // OpenSearch's own sequential search: concurrent segment search off, the executor unused.
    setConcurrentMode("none");
    List<String> expected = new ArrayList<>();
    for (QueryBuilder q : queries) {
      expected.add(result(client(), q));
    }
    setConcurrentMode("all");

    for (String policy : POLICIES) {
      setPolicy(policy);
      long helpersBefore = sum("units", "on_helpers");
      long completedBefore = sum("requests", "completed");
      for (int i = 0; i < queries.size(); i++) {
        assertEquals(
            policy + ": " + queries.get(i), expected.get(i), result(client(), queries.get(i)));
      }
      assertTrue(
          policy + ": requests ran through Tailor", sum("requests", "completed") > completedBefore);
      if (policy.equals("seq")) {
        assertEquals("seq never sends a helper", helpersBefore, sum("units", "on_helpers"));
      } else {
        // A helper takes a slice when it is free before the query's own thread has claimed them
        // all: search until one has (it always has within a few queries; the bound is a guard).
        for (int round = 0; round < 100 && sum("units", "on_helpers") == helpersBefore; round++) {
          for (int i = 0; i < queries.size(); i++) {
            assertEquals(policy, expected.get(i), result(client(), queries.get(i)));
          }
        }
        assertTrue(policy + ": helpers ran units", sum("units", "on_helpers") > helpersBefore);
      }
    }
    // The degree each request got is shown per request, under the policy that gave it.
    setPolicy("fixed:2");
    result(client(), queries.get(0));
    boolean sawDegreeTwo = false;
    for (Map<String, Object> node : nodeStats()) {
      for (Object line : (List<?>) node.get("recent")) {
        Map<?, ?> request = (Map<?, ?>) line;
        if ("fixed:2".equals(request.get("policy"))) {
          assertEquals(2, ((Number) request.get("degree")).intValue());
          assertTrue(((String) request.get("shard")).contains(INDEX));
          sawDegreeTwo = true;
        }
      }
    }
    assertTrue(sawDegreeTwo);

    // The priority class travels with the request to every shard's query phase.
    long backgroundBefore = sum("requests", "background");
    Client background =
        client().filterWithHeader(Map.of(QueryPhaseListener.CLASS_HEADER, "background"));
    assertEquals(expected.get(0), result(background, queries.get(0)));
    assertTrue(
        "the shards' query phases ran as background requests",
        sum("requests", "background") > backgroundBefore);

    // A specification the registry cannot parse is refused, naming the setting and the value.
    IllegalArgumentException e =
        expectThrows(IllegalArgumentException.class, () -> setPolicy("fixed:two"));
    assertTrue(e.getMessage(), e.getMessage().contains("tailor.policy"));
    for (Map<String, Object> node : nodeStats()) {
      assertEquals("fixed:2", node.get("policy"));
    }
  }

  private void policySwapsAndARestartUnderLoadLoseNoRequest(List<QueryBuilder> queries)
      throws Exception {
    String[] nodes = internalCluster().getNodeNames();
    String coordinator = nodes[0];
    String victim = nodes[1 + random().nextInt(nodes.length - 1)];
    Client client = client(coordinator);

    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong started = new AtomicLong();
    AtomicLong returned = new AtomicLong();
    // Failures by the phase they happened in: only the restart may fail a search (OpenSearch's own
    // fetch phase does not retry a copy on a node that left), and each is counted.
    AtomicReference<String> phase = new AtomicReference<>("swaps");
    Map<String, List<Throwable>> failures = new ConcurrentHashMap<>();
    Thread[] load = new Thread[3];
    for (int t = 0; t < load.length; t++) {
      long seed = random().nextLong();
      load[t] =
          new Thread(
              () -> {
                Random r = new Random(seed);
                while (!stop.get()) {
                  started.incrementAndGet();
                  try {
                    SearchResponse response =
                        client
                            .prepareSearch(INDEX)
                            .setQuery(queries.get(r.nextInt(queries.size())))
                            .setSize(10)
                            .get();
                    if (response.getFailedShards() > 0) {
                      failed(failures, phase, new AssertionError("shard failures: " + response));
                    }
                  } catch (Throwable e) {
                    failed(failures, phase, e);
                  } finally {
                    returned.incrementAndGet();
                  }
                }
              },
              "tailor-test-load-" + t);
      load[t].start();
    }
    try {
      for (String policy : List.of("fixed:2", "steal-first", "seq", "rampup:1ms,3", "fixed:3")) {
        setPolicy(policy);
        awaitMoreSearches(returned, 20);
      }
      // A new budget and queue: the one update that builds a new scheduler on every node.
      updateSettings(Settings.builder().put("tailor.workers", 3).put("tailor.queue_capacity", 50));
      awaitMoreSearches(returned, 20);
      phase.set("restart");
      internalCluster().restartNode(victim);
      ensureGreen(INDEX);
      awaitMoreSearches(returned, 20);
      phase.set("after restart");
      setPolicy("fixed:2");
      awaitMoreSearches(returned, 20);
    } finally {
      stop.set(true);
      for (Thread t : load) {
        t.join();
      }
    }
    assertEquals("every search returned", started.get(), returned.get());
    List<Throwable> restartFailures = failures.getOrDefault("restart", List.of());
    logger.info(
        "{} searches under load; {} failed while node [{}] restarted",
        returned.get(),
        restartFailures.size(),
        victim);
    for (String when : failures.keySet()) {
      assertEquals("no search failed but for the restart: " + failures, "restart", when);
    }
    for (Throwable t : restartFailures) {
      assertNotNull("a failure says what failed", t.getMessage());
    }
    for (Map<String, Object> node : nodeStats()) {
      assertEquals(node.toString(), "fixed:2", node.get("policy"));
      assertEquals(node.toString(), 3, ((Number) node.get("workers")).intValue());
      assertEquals(node.toString(), 50, ((Number) node.get("queue_capacity")).intValue());
      assertEquals(node.toString(), 0, ((Number) node.get("active")).intValue());
      assertEquals(node.toString(), 0, ((Number) node.get("queued")).intValue());
      assertEquals(node.toString(), 0L, count(node, "requests", "failed"));
    }
    assertTrue(sum("requests", "completed") > 0);
  }

  private static void failed(
      Map<String, List<Throwable>> failures, AtomicReference<String> phase, Throwable t) {
    failures.computeIfAbsent(phase.get(), p -> new CopyOnWriteArrayList<>()).add(t);
  }

  private void awaitMoreSearches(AtomicLong returned, int more) throws Exception {
    long target = returned.get() + more;
    assertBusy(() -> assertTrue(returned.get() >= target));
  }

  private void indexText() {
    assertAcked(
        prepareCreate(INDEX)
            .setSettings(
                Settings.builder()
                    .put("index.number_of_shards", 3)
                    .put("index.number_of_replicas", 1)
                    .put("index.merge.policy.segments_per_tier", 20))
            .setMapping("body", "type=text", "id", "type=keyword", "n", "type=integer"));
    Random random = new Random(20261123L);
    int n = 0;
    for (int b = 0; b < BATCHES; b++) {
      BulkRequestBuilder bulk =
          client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
      for (int i = 0; i < DOCS_PER_BATCH; i++, n++) {
        String id = String.format(java.util.Locale.ROOT, "doc-%04d", n);
        bulk.add(
            client()
                .prepareIndex(INDEX)
                .setId(id)
                .setSource("body", Sentences.text(random), "id", id, "n", n));
      }
      assertFalse(bulk.get().hasFailures());
    }
    ensureGreen(INDEX);
  }

  private static List<QueryBuilder> queries() {
    return List.of(
        QueryBuilders.matchQuery("body", "lighthouse"),
        QueryBuilders.matchQuery("body", "the rain"),
        QueryBuilders.boolQuery()
            .must(QueryBuilders.matchQuery("body", "heron"))
            .should(QueryBuilders.matchQuery("body", "canal")),
        QueryBuilders.matchPhraseQuery("body", "copper lamps"),
        QueryBuilders.rangeQuery("n").gte(100).lt(300),
        QueryBuilders.matchAllQuery(),
        QueryBuilders.boolQuery()
            .should(QueryBuilders.matchQuery("body", "bread"))
            .should(QueryBuilders.matchQuery("body", "honey"))
            .mustNot(QueryBuilders.matchQuery("body", "dawn")));
  }

  /** Top hits (id and score, ties broken by id) and the exact total, as one comparable string. */
  private static String result(Client client, QueryBuilder query) {
    SearchResponse response =
        client
            .prepareSearch(INDEX)
            .setPreference("tailor-test") // the same shard copies every time
            .setSearchType(SearchType.QUERY_THEN_FETCH) // the test client may pick DFS at random
            .setQuery(query)
            .setSize(20)
            .setTrackTotalHits(true)
            .addSort(SortBuilders.scoreSort())
            .addSort("id", SortOrder.ASC)
            .get();
    assertNoFailures(response);
    StringBuilder out =
        new StringBuilder("total ").append(response.getHits().getTotalHits().value());
    for (SearchHit hit : response.getHits().getHits()) {
      out.append(' ').append(hit.getId()).append(':').append(hit.getScore());
    }
    return out.toString();
  }

  private void setPolicy(String spec) {
    assertAcked(
        client()
            .admin()
            .cluster()
            .prepareUpdateSettings()
            .setPersistentSettings(Settings.builder().put("tailor.policy", spec)));
  }

  private void setConcurrentMode(String mode) {
    assertAcked(
        client()
            .admin()
            .cluster()
            .prepareUpdateSettings()
            .setPersistentSettings(
                Settings.builder().put("search.concurrent_segment_search.mode", mode)));
  }

  private List<Map<String, Object>> nodeStats() {
    TailorStatsAction.Response response =
        client().execute(TailorStatsAction.INSTANCE, new TailorStatsAction.Request()).actionGet();
    assertTrue(response.failures().toString(), response.failures().isEmpty());
    assertEquals(3, response.getNodes().size());
    List<Map<String, Object>> out = new ArrayList<>();
    for (TailorStatsAction.NodeResponse node : response.getNodes()) {
      out.add(node.stats());
    }
    return out;
  }

  private long sum(String group, String field) {
    long total = 0;
    for (Map<String, Object> node : nodeStats()) {
      total += count(node, group, field);
    }
    return total;
  }

  private static long count(Map<String, Object> node, String group, String field) {
    return ((Number) ((Map<?, ?>) node.get(group)).get(field)).longValue();
  }
}
