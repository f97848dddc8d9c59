package dev.tailor.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.Predictor;
import dev.tailor.core.RequestAttributes;
import dev.tailor.core.policy.RequestView;
import dev.tailor.lucene.QueryShape;
import dev.tailor.lucene.SearchOutcome;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.TailorSearchers;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * Runs one search request on the searcher: checks its fields, parses its text, predicts its
 * sequential time, submits it under its class and priority, and writes its answer. Knows nothing of
 * HTTP; every refusal is a {@link Problem}. Thread-safe: the request threads share one.
 */
final class SearchRunner {

  private static final System.Logger LOG = System.getLogger(SearchServer.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TailorSearcher searcher;
  private final Analyzer analyzer;
  private final String field;
  private final SearchServer.Options options;
  private final Predictor<Query> predictor;
  private final LabelGroups labels;
  private final ServerTimings timings; // null: no Server-Timing header

  SearchRunner(
      TailorSearcher searcher,
      Analyzer analyzer,
      String field,
      SearchServer.Options options,
      Predictor<Query> predictor,
      LabelGroups labels,
      ServerTimings timings) {
    this.searcher = searcher;
    this.analyzer = analyzer;
    this.field = field;
    this.options = options;
    this.predictor = predictor;
    this.labels = labels;
    this.timings = timings;
  }

  /** A search's answer: its body, and its {@code Server-Timing} value or null. */
  record Answer(ObjectNode body, String serverTiming) {}

  /**
   * Checks {@code fields} as a search request ({@link SearchRequest#of}) and runs it: its answer,
   * or the problem that refused it.
   */
  Answer search(Map<String, String> fields) throws Problem {
    return search(SearchRequest.of(fields, options));
  }

  private Answer search(SearchRequest request) throws Problem {
    Query query = parse(request.text());
    long start = System.nanoTime();
    long predicted = predict(query);
    RequestAttributes attributes =
        new RequestAttributes(labels.groupOf(request.label()), predicted)
            .withPriority(request.priority());
    TopScoreDocCollectorManager manager =
        new TopScoreDocCollectorManager(request.k(), options.totalHitsThreshold());
    SearchOutcome<TopDocs> outcome;
    String serverTiming = null;
    try {
      if (timings == null) {
        outcome = searcher.search(query, manager, attributes, request.timeout());
      } else {
        // The search runs inside a request of its own, whose record the listener hands back; its
        // deadline still counts from before admission, as a search of its own would.
        Duration timeout = request.timeout();
        ServerTimings.Timed<SearchOutcome<TopDocs>> timed =
            timings.run(
                searcher.scheduler(),
                attributes,
                () ->
                    searcher.search(
                        query,
                        manager,
                        attributes,
                        timeout == null ? null : timeout.minusNanos(System.nanoTime() - start)));
        outcome = timed.result();
        serverTiming = timed.header();
      }
    } catch (RejectedExecutionException e) {
      throw new Problem(503, "overloaded: the scheduler's admission queue is full; retry later");
    } catch (CancellationException e) {
      throw new Problem(503, "shutting down");
    } catch (IndexSearcher.TooManyClauses e) {
      throw tooComplex();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "search failed: " + request.text(), e);
      throw Problem.internal();
    }
    ObjectNode out = JSON.createObjectNode();
    out.put("query", query.toString(field));
    TopDocs top = outcome.result();
    out.put("totalHits", top.totalHits.value());
    out.put("totalHitsRelation", top.totalHits.relation().name());
    out.put("timedOut", outcome.timedOut());
    out.put("tookMicros", (System.nanoTime() - start) / 1_000);
    if (predicted != RequestView.UNKNOWN) {
      out.put("predictedMicros", predicted / 1_000.0);
    }
    ArrayNode hits = out.putArray("hits");
    for (ScoreDoc sd : top.scoreDocs) {
      hits.addObject().put("doc", sd.doc).put("score", sd.score);
    }
    return new Answer(out, serverTiming);
  }

  private Query parse(String text) throws Problem {
    Query query;
    try {
      query = new QueryParser(field, analyzer).parse(text);
    } catch (ParseException e) {
      if (e.getCause() instanceof IndexSearcher.TooManyClauses) {
        throw tooComplex();
      }
      throw new Problem(
          400,
          "query does not parse"
              + column(e)
              + ": check its quotes, parentheses, brackets and operators");
    } catch (IndexSearcher.TooManyClauses e) {
      throw tooComplex();
    } catch (IllegalArgumentException e) {
      throw new Problem(400, "query does not parse: the analyzer refused it");
    }
    int clauses = QueryShape.of(query).clauses();
    if (clauses > options.maxClauses()) {
      throw new Problem(
          400, "query too complex: " + clauses + " clauses, limit " + options.maxClauses());
    }
    return query;
  }

  private Problem tooComplex() {
    return new Problem(
        400, "query too complex: more clauses than the limit " + options.maxClauses());
  }

  /** Where the parser stopped, when it says; the classic parser wraps its own exception. */
  private static String column(ParseException e) {
    ParseException at = e.getCause() instanceof ParseException cause ? cause : e;
    if (at.currentToken != null && at.currentToken.next != null) {
      return " at column " + at.currentToken.next.beginColumn;
    }
    return "";
  }

  /** The predictor's estimate, or UNKNOWN without a predictor or when it cannot say. */
  private long predict(Query query) {
    if (predictor == null) {
      return RequestView.UNKNOWN;
    }
    try {
      long nanos = predictor.predictSequentialNanos(query);
      return nanos < 0 ? RequestView.UNKNOWN : nanos;
    } catch (RuntimeException e) {
      return RequestView
          .UNKNOWN; // the contract says it does not throw; a search never fails for it
    }
  }

  /** The policy, its tables, the slicing and the predictor, as {@code /policy} shows them. */
  ObjectNode policy() {
    ObjectNode out = JSON.createObjectNode();
    out.put("policy", searcher.scheduler().policy().spec());
    out.putNull("tables"); // no table-driven policy exists yet
    out.put("slicing", TailorSearchers.slicing(searcher).toString());
    if (predictor != null) {
      out.put("predictor", predictor.toString());
    } else {
      out.putNull("predictor");
    }
    return out;
  }
}
