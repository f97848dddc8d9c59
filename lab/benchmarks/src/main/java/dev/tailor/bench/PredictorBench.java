package dev.tailor.bench;

import dev.tailor.predictor.Dataset;
import dev.tailor.predictor.ModelPredictor;
import dev.tailor.predictor.PredictorModel;
import dev.tailor.predictor.QueryFeatures;
import dev.tailor.predictor.Trainer;
import dev.tailor.profiler.SearchTimings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoostError;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * {@code bench predictor}: what TPC's predictor costs per query (its features on the index, then
 * the model) against what the query itself costs, both measured in the same run on the same
 * queries. Goal: a median of at most {@value #GOAL_MICROS} µs and at most {@value #GOAL_SHARE} of
 * the median query's sequential search time.
 *
 * <p>Each repetition runs every query once sequentially (a plain {@code IndexSearcher}, top 10 by
 * score) and predicts it once, alternating, so that drift falls on both; a query's figure is the
 * median of its repetitions. Without a model file the benchmark trains a stand-in with the default
 * parameters on the sequential times it measured during warm-up: a forest of the size training
 * produces, which is all that matters to its cost. It also times XGBoost4J's own single-row
 * prediction ({@code inplace_predict}, and a one-row {@code DMatrix} with {@code predict}) on the
 * same model, the alternative to evaluating the trees in Java.
 */
public final class PredictorBench {

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "predictor";

  static final double GOAL_MICROS = 30;
  static final double GOAL_SHARE = 0.03;

  /**
   * What the benchmark runs on.
   *
   * @param index the index's directory, named in the report
   * @param trace the trace the queries came from, named in the report
   * @param source the label of the corpus the index was built from
   * @param reader the open index
   * @param queries the queries, in trace order
   * @param model a model file, or null to train a stand-in
   */
  public record Input(
      Path index,
      Path trace,
      String source,
      IndexReader reader,
      List<SearchTimings.Labelled> queries,
      Path model) {}

  private PredictorBench() {}

  /** Runs the benchmark and prints its figures; {@code quick} takes fewer repetitions. */
  public static void run(Input input, boolean quick, PrintWriter out) throws IOException {
    int warmups = quick ? 2 : 5;
    int repetitions = quick ? 5 : 11;
    List<SearchTimings.Labelled> queries = input.queries();
    int n = queries.size();
    IndexSearcher searcher = new IndexSearcher(input.reader()); // sequential: no executor
    QueryFeatures features = new QueryFeatures(input.reader());
    out.printf(
        "%n%s: %d queries of %s on %s (%s, %d docs), measured on this machine; medians of %d"
            + " runs after %d warm-ups%n",
        NAME,
        n,
        input.trace().getFileName(),
        input.index().getFileName(),
        input.source(),
        input.reader().maxDoc(),
        repetitions,
        warmups);
    long[] warm = new long[n];
    float[][] rows = new float[n][];
    for (int w = 0; w < warmups; w++) {
      for (int i = 0; i < n; i++) {
        warm[i] = Math.max(1, search(searcher, queries.get(i).query()));
        rows[i] = features.extract(queries.get(i).query());
      }
    }
    PredictorModel model;
    String modelName;
    if (input.model() != null) {
      model = PredictorModel.read(input.model());
      modelName = input.model().getFileName().toString();
    } else {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ids.add(Integer.toString(i));
      }
      model =
          Trainer.trainOnAll(
              new Dataset(ids, rows, warm),
              PredictorModel.Params.defaults(),
              1,
              "this run's warm-up times");
      modelName = "a stand-in trained on this run's warm-up times, default parameters";
    }
    out.printf("  model: %s (%d trees)%n", modelName, model.trees());
    try (ModelPredictor predictor = ModelPredictor.of(input.reader(), model)) {
      long[][] search = new long[n][repetitions];
      long[][] predict = new long[n][repetitions];
      long[][] feature = new long[n][repetitions];
      long sink = 0;
      for (int w = 0; w < warmups; w++) {
        for (int i = 0; i < n; i++) {
          sink += predictor.predictSequentialNanos(queries.get(i).query());
        }
      }
      for (int r = 0; r < repetitions; r++) {
        for (int i = 0; i < n; i++) {
          Query q = queries.get(i).query();
          search[i][r] = search(searcher, q);
          long t0 = System.nanoTime();
          sink += predictor.predictSequentialNanos(q);
          long t1 = System.nanoTime();
          sink += (long) features.extract(q)[0];
          long t2 = System.nanoTime();
          predict[i][r] = t1 - t0;
          feature[i][r] = t2 - t1;
        }
      }
      double forestNanos = forestNanos(model, rows);
      // A fresh instance has no term statistics cached: each term's first use pays its lookups.
      QueryFeatures fresh = new QueryFeatures(input.reader());
      long[] cold = new long[n];
      for (int i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        sink += (long) fresh.extract(queries.get(i).query())[0];
        cold[i] = System.nanoTime() - t0;
      }
      long[] searchMedian = medians(search);
      long[] predictMedian = medians(predict);
      long[] featureMedian = medians(feature);
      double searchP50 = percentile(searchMedian, 50);
      double predictP50 = percentile(predictMedian, 50);
      double share = predictP50 / searchP50;
      out.printf(
          "  sequential search (plain IndexSearcher, top 10): median %.3f ms, p99 %.3f ms%n",
          searchP50 / 1e6, percentile(searchMedian, 99) / 1e6);
      out.printf(
          "  prediction (features + Java forest): median %.1f µs, p99 %.1f µs; features alone"
              + " median %.1f µs; forest alone %.2f µs%n",
          predictP50 / 1e3,
          percentile(predictMedian, 99) / 1e3,
          percentile(featureMedian, 50) / 1e3,
          forestNanos / 1e3);
      out.printf(
          "  features with term statistics not yet cached (one pass, fresh instance): median %.1f"
              + " µs, p99 %.1f µs%n",
          percentile(cold, 50) / 1e3, percentile(cold, 99) / 1e3);
      out.printf(
          "  ratio: median prediction / median sequential search = %.4f (%.2f%%); goal: <= %.0f µs"
              + " and <= %.0f%% -> %s%n",
          share,
          100 * share,
          GOAL_MICROS,
          100 * GOAL_SHARE,
          predictP50 <= GOAL_MICROS * 1e3 && share <= GOAL_SHARE ? "met" : "NOT met");
      xgboost(model, rows, forestNanos, out);
      byCategory(queries, searchMedian, predictMedian, out);
      if (predictor.failures() > 0) {
        out.printf("  %d predictions failed (predicted unknown)%n", predictor.failures());
      }
      if (sink == 42) {
        out.print(""); // keeps the timed calls from being optimized away
      }
    }
    out.flush();
  }

  private static long search(IndexSearcher searcher, Query q) throws IOException {
    long start = System.nanoTime();
    searcher.search(q, new TopScoreDocCollectorManager(10, 1000));
    return System.nanoTime() - start;
  }

  /** The Java forest's time per row, over many rows: one call is too short to time alone. */
  private static double forestNanos(PredictorModel model, float[][] rows) {
    float sink = 0;
    int passes = Math.max(1, 20_000 / rows.length);
    for (int p = 0; p < passes; p++) { // warm-up
      for (float[] row : rows) {
        sink += model.predictLog(row);
      }
    }
    long start = System.nanoTime();
    for (int p = 0; p < passes; p++) {
      for (float[] row : rows) {
        sink += model.predictLog(row);
      }
    }
    long elapsed = System.nanoTime() - start;
    return sink == 42 ? 0 : (double) elapsed / ((long) passes * rows.length);
  }

  /** XGBoost4J's own single-row prediction on the same model and rows. */
  private static void xgboost(
      PredictorModel model, float[][] rows, double forestNanos, PrintWriter out)
      throws IOException {
    int n = QueryFeatures.count();
    int sample = Math.min(rows.length, 500);
    long[] inplace = new long[sample];
    long[] dmatrix = new long[sample];
    Booster booster = model.loadBooster();
    try {
      // One thread, as the trainer uses: a loaded booster would otherwise start a thread team per
      // call, which on a busy machine costs milliseconds.
      booster.setParam("nthread", 1);
      for (int pass = 0; pass < 2; pass++) { // the first pass warms up
        for (int i = 0; i < sample; i++) {
          long t0 = System.nanoTime();
          booster.inplace_predict(rows[i], 1, n, Float.NaN);
          long t1 = System.nanoTime();
          DMatrix m = new DMatrix(rows[i], 1, n, Float.NaN);
          booster.predict(m);
          m.dispose();
          long t2 = System.nanoTime();
          inplace[i] = t1 - t0;
          dmatrix[i] = t2 - t1;
        }
      }
    } catch (XGBoostError e) {
      throw new IOException("XGBoost failed to predict: " + e.getMessage(), e);
    } finally {
      booster.dispose();
    }
    out.printf(
        "  XGBoost4J single row on the same model: inplace_predict median %.1f µs, p99 %.1f µs;"
            + " one-row DMatrix + predict median %.1f µs (the Java forest: %.2f µs)%n",
        percentile(inplace, 50) / 1e3,
        percentile(inplace, 99) / 1e3,
        percentile(dmatrix, 50) / 1e3,
        forestNanos / 1e3);
  }

  private static void byCategory(
      List<SearchTimings.Labelled> queries, long[] search, long[] predict, PrintWriter out) {
    Map<String, List<Integer>> groups = new TreeMap<>();
    for (int i = 0; i < queries.size(); i++) {
      String c = queries.get(i).category();
      groups.computeIfAbsent(c == null ? "-" : c, k -> new ArrayList<>()).add(i);
    }
    if (groups.size() < 2) {
      return;
    }
    out.printf(
        "  %-18s %7s %12s %14s %8s%n", "category", "queries", "search p50", "predict p50", "share");
    groups.forEach(
        (category, list) -> {
          long[] s = list.stream().mapToLong(i -> search[i]).toArray();
          long[] p = list.stream().mapToLong(i -> predict[i]).toArray();
          double sp = percentile(s, 50);
          double pp = percentile(p, 50);
          out.printf(
              "  %-18s %7d %9.3f ms %11.1f µs %7.2f%%%n",
              category, list.size(), sp / 1e6, pp / 1e3, 100 * pp / sp);
        });
  }

  private static long[] medians(long[][] samples) {
    long[] out = new long[samples.length];
    for (int i = 0; i < samples.length; i++) {
      long[] s = samples[i].clone();
      Arrays.sort(s);
      out[i] = s[s.length / 2];
    }
    return out;
  }

  /** The nearest-rank percentile. */
  static double percentile(long[] values, double p) {
    long[] s = values.clone();
    Arrays.sort(s);
    int rank = (int) Math.ceil(p / 100 * s.length);
    return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
  }
}
