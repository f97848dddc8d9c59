package dev.tailor.opensearch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.IndexSettings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.deciders.ConcurrentSearchDecision;
import org.opensearch.search.deciders.ConcurrentSearchRequestDecider;
import org.opensearch.test.IndexSettingsModule;

/**
 * What Tailor's decider adds to one shard request under mode {@code auto}: what OpenSearch calls
 * ({@code create}, {@code evaluateForQuery} on each node of the query, {@code
 * getConcurrentSearchDecision}) and the query phase's {@code take} of the verdict. Queries are a
 * mix of 256 (match, phrase, and bool of two matches), half of them with a recorded cost, on a node
 * with an idle scheduler; the recent-decisions list and the counters are updated as in production.
 * Run by {@code ./tailor bench decider}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DeciderBenchmark {

  private static final String[] WORDS = {
    "heron",
    "canal",
    "lighthouse",
    "rain",
    "copper",
    "lamps",
    "bread",
    "honey",
    "dawn",
    "harbour",
    "river",
    "stone",
    "market",
    "bridge",
    "winter",
    "garden"
  };

  private LiveScheduler live;
  private NodeDecider decider;
  private IndexSettings index;
  private final List<QueryBuilder> queries = new ArrayList<>();
  private final List<QueryBuilder[]> children = new ArrayList<>();
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    NodeStats stats = new NodeStats();
    live = new LiveScheduler("fixed:2", 4, 100, Executors.defaultThreadFactory(), stats);
    decider = new NodeDecider(Settings.EMPTY, live, stats);
    index = IndexSettingsModule.newIndexSettings("docs", Settings.EMPTY);
    for (int i = 0; i < 256; i++) {
      String a = WORDS[i % WORDS.length];
      String b = WORDS[(i / WORDS.length) % WORDS.length];
      QueryBuilder q =
          switch (i % 3) {
            case 0 -> QueryBuilders.matchQuery("body", a + " " + b);
            case 1 -> QueryBuilders.matchPhraseQuery("body", a + " " + b);
            default ->
                QueryBuilders.boolQuery()
                    .must(QueryBuilders.matchQuery("body", a))
                    .should(QueryBuilders.matchQuery("body", b));
          };
      queries.add(q);
      children.add(
          q instanceof org.opensearch.index.query.BoolQueryBuilder bool
              ? new QueryBuilder[] {bool.must().get(0), bool.should().get(0)}
              : new QueryBuilder[0]);
      if (i % 2 == 0) {
        decider.measured(
            new NodeDecider.Pending(q, QueryCosts.key("docs", q), null), (i % 7) * 1_000_000L);
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    live.close();
  }

  @Benchmark
  public Object decide() {
    int i = next++ & 255;
    QueryBuilder q = queries.get(i);
    ConcurrentSearchRequestDecider d = decider.create(index).orElseThrow();
    d.evaluateForQuery(q, index);
    for (QueryBuilder child : children.get(i)) {
      d.evaluateForQuery(child, index);
    }
    ConcurrentSearchDecision decision = d.getConcurrentSearchDecision();
    decider.clearPending(); // what the query phase's take does
    return decision;
  }
}
