package dev.tailor.opensearch;

import org.opensearch.index.IndexSettings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.search.deciders.ConcurrentSearchDecision;
import org.opensearch.search.deciders.ConcurrentSearchRequestDecider;

/**
 * Tailor's decider for one shard request under mode {@code auto}: OpenSearch shows it every node of
 * the request's query ({@link #evaluateForQuery}, the whole query first), then asks for its
 * decision once. The decision is the node's {@link Verdict} for the whole query: {@code YES} sends
 * the query phase concurrent, through the Tailor scheduler, whose policy gives it threads as it
 * runs (with the prediction, if there is one); {@code NO} runs it sequentially on its own thread.
 * It never answers {@code NO_OP}: with Tailor's decider on, Tailor decides.
 */
final class TailorDecider extends ConcurrentSearchRequestDecider {

  private final NodeDecider node;
  private final String index;
  private QueryBuilder root;
  private boolean visited;
  private Verdict verdict;

  TailorDecider(NodeDecider node, String index) {
    this.node = node;
    this.index = index;
  }

  /** Keeps the first node shown, the request's whole query; its parts add nothing to the key. */
  @Override
  public void evaluateForQuery(QueryBuilder queryBuilder, IndexSettings indexSettings) {
    if (!visited) {
      visited = true;
      root = queryBuilder;
    }
  }

  @Override
  public ConcurrentSearchDecision getConcurrentSearchDecision() {
    Verdict v = node.decide(index, root);
    verdict = v;
    return new ConcurrentSearchDecision(
        v.concurrent()
            ? ConcurrentSearchDecision.DecisionStatus.YES
            : ConcurrentSearchDecision.DecisionStatus.NO,
        "tailor " + v.explain(node.minCostNanos()));
  }

  /** The verdict given, or {@code null} before {@link #getConcurrentSearchDecision}. */
  Verdict verdict() {
    return verdict;
  }
}
