package dev.tailor.predictor;

import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

/**
 * Trains a {@link PredictorModel} with XGBoost4J: boosted regression trees learning {@value
 * PredictorModel#TARGET} from {@link QueryFeatures}, as TPC's predictor does (Jeon et al.,
 * ASPLOS'16, §3.1, after Kim et al., WSDM'15).
 *
 * <p>A seeded share of the requests is held out; the model is trained on the rest and its metrics
 * are measured on the held-out ones, so that they say how it does on queries it never saw. The
 * model kept is the one trained without the held-out requests: its recorded metrics describe it.
 * The long class is the slowest 5% of the training requests. An ablation trains again with each
 * {@linkplain QueryFeatures.Family family} of features dropped (made missing, so no tree splits on
 * them) and measures on the same held-out requests: what each family adds beyond the others.
 */
public final class Trainer {

  /** The share of the slowest training requests that makes up the long class. */
  public static final double LONG_SHARE = 0.05;

  /**
   * How to train.
   *
   * @param params XGBoost's parameters
   * @param seed chooses the held-out requests and seeds XGBoost's sampling
   * @param holdout the share of requests held out, in [0, 1)
   */
  public record Options(PredictorModel.Params params, long seed, double holdout) {

    /** Checks the held-out share. */
    public Options {
      if (!(holdout >= 0 && holdout < 1)) {
        throw new IllegalArgumentException("the held-out share must be in [0, 1), got " + holdout);
      }
    }
  }

  /**
   * Held-out metrics of a model trained without one family of features.
   *
   * @param dropped the family left out
   * @param heldOut its metrics on the held-out requests
   */
  public record Ablation(QueryFeatures.Family dropped, Metrics heldOut) {}

  /**
   * What training produced.
   *
   * @param model the model, trained on the training requests
   * @param trainRows the training requests' rows
   * @param heldOutRows the held-out requests' rows, in the profile's order
   * @param training the model's metrics on its own training requests
   * @param heldOut its metrics on the held-out requests, or null if none were held out
   * @param ablation per family, the held-out metrics without it; empty unless asked for
   */
  public record Result(
      PredictorModel model,
      int[] trainRows,
      int[] heldOutRows,
      Metrics training,
      Metrics heldOut,
      List<Ablation> ablation) {}

  private Trainer() {}

  /**
   * Trains a model on a profile's requests.
   *
   * @param ablate also train once per feature family without it (needs held-out requests)
   * @throws IOException if XGBoost fails
   * @throws IllegalArgumentException if too few requests are left to train on
   */
  public static Result train(ProfileData data, Options options, boolean ablate) throws IOException {
    Dataset d = data.data();
    int[][] split = split(d.size(), options.holdout(), options.seed());
    int[] train = split[0];
    int[] heldOut = split[1];
    if (train.length < 2) {
      throw new IllegalArgumentException(
          "only " + train.length + " requests left to train on; lower the held-out share");
    }
    long threshold = longThreshold(d.nanos(train));
    Booster booster = fit(d, train, options.params(), options.seed(), new int[0]);
    PredictorModel model;
    try {
      Metrics held = null;
      PredictorModel.Training inputs =
          new PredictorModel.Training(
              data.profileFile().getFileName().toString(),
              data.profileDigest(),
              data.index().toAbsolutePath().toString(),
              data.profile().environment().indexDocs(),
              data.trace().toAbsolutePath().toString(),
              d.size(),
              options.seed(),
              options.holdout(),
              options.params(),
              threshold);
      model = PredictorModel.of(inputs, null, Instant.now().toString(), booster);
      if (heldOut.length > 0) {
        held = Metrics.of(d.nanos(heldOut), predict(model, d, heldOut), threshold);
        model = PredictorModel.of(inputs, held, model.trainedAt(), booster);
      }
    } finally {
      booster.dispose();
    }
    Metrics onTraining = Metrics.of(d.nanos(train), predict(model, d, train), threshold);
    List<Ablation> ablation = new ArrayList<>();
    if (ablate && heldOut.length > 0) {
      for (QueryFeatures.Family family : QueryFeatures.Family.values()) {
        int[] dropped = QueryFeatures.indices(family);
        Booster without = fit(d, train, options.params(), options.seed(), dropped);
        try {
          ablation.add(
              new Ablation(
                  family,
                  Metrics.of(d.nanos(heldOut), predict(without, d, heldOut, dropped), threshold)));
        } finally {
          without.dispose();
        }
      }
    }
    return new Result(model, train, heldOut, onTraining, model.heldOut(), List.copyOf(ablation));
  }

  /**
   * A model trained on every row of {@code data}, none held out: for a benchmark that needs a model
   * of realistic size where no profile is at hand.
   *
   * @param source names where the rows came from, recorded as the model's profile
   * @throws IOException if XGBoost fails
   */
  public static PredictorModel trainOnAll(
      Dataset data, PredictorModel.Params params, long seed, String source) throws IOException {
    int[] all = IntStream.range(0, data.size()).toArray();
    long[] nanos = data.nanos(all);
    Booster booster = fit(data, all, params, seed, new int[0]);
    try {
      return PredictorModel.of(
          new PredictorModel.Training(
              source, "none", "", 0, "", data.size(), seed, 0, params, longThreshold(nanos)),
          null,
          Instant.now().toString(),
          booster);
    } finally {
      booster.dispose();
    }
  }

  /**
   * How well a second profile of the same queries predicts the first: its measured times taken as
   * predictions of the first's, on the given rows. No model can agree with a profile better than a
   * second measurement of it does, so this bounds what label noise lets any model reach.
   *
   * @param other a second profile, holding every request of {@code rows} by id
   * @param rows rows of {@code data} to compare on
   * @throws IOException naming the other profile's file if a request is missing from it
   */
  public static Metrics agreement(
      ProfileData data, DemandProfile other, Path otherFile, int[] rows, long longThresholdNanos)
      throws IOException {
    Map<String, Long> times = new HashMap<>();
    for (DemandProfile.Request r : other.requests()) {
      times.putIfAbsent(r.id(), r.sequentialNanos());
    }
    long[] predicted = new long[rows.length];
    for (int i = 0; i < rows.length; i++) {
      Long t = times.get(data.data().id(rows[i]));
      if (t == null) {
        throw new IOException(
            otherFile
                + ": has no request with id "
                + data.data().id(rows[i])
                + ", which "
                + data.profileFile()
                + " has: not a profile of the same queries");
      }
      predicted[i] = t;
    }
    return Metrics.of(data.data().nanos(rows), predicted, longThresholdNanos);
  }

  /**
   * Predicts every request by a model that did not see it: the requests are dealt into {@code k}
   * seeded folds, and each fold is predicted by a model trained on the other {@code k - 1} with
   * {@code params}.
   *
   * @return {@code out[i]} is request i's prediction in nanoseconds
   * @throws IllegalArgumentException unless {@code 2 <= k <= requests}
   * @throws IOException if XGBoost fails
   */
  public static long[] crossFit(Dataset data, PredictorModel.Params params, long seed, int k)
      throws IOException {
    if (k < 2 || k > data.size()) {
      throw new IllegalArgumentException(
          "cross-fit needs 2 to " + data.size() + " folds, got " + k);
    }
    int[] order = shuffled(data.size(), seed);
    int[] fold = new int[data.size()];
    for (int i = 0; i < order.length; i++) {
      fold[order[i]] = i % k;
    }
    long[] out = new long[data.size()];
    for (int f = 0; f < k; f++) {
      final int held = f;
      int[] test = IntStream.range(0, fold.length).filter(i -> fold[i] == held).toArray();
      int[] train = IntStream.range(0, fold.length).filter(i -> fold[i] != held).toArray();
      Booster booster = fit(data, train, params, seed, new int[0]);
      try {
        long[] predicted = predict(booster, data, test, new int[0]);
        for (int i = 0; i < test.length; i++) {
          out[test[i]] = predicted[i];
        }
      } finally {
        booster.dispose();
      }
    }
    return out;
  }

  /**
   * The training and held-out rows: a seeded shuffle, of which the first {@code holdout} share is
   * held out; both in row order.
   */
  static int[][] split(int n, double holdout, long seed) {
    int[] order = shuffled(n, seed);
    int held = (int) Math.round(holdout * n);
    int[] heldOut = Arrays.copyOfRange(order, 0, held);
    int[] train = Arrays.copyOfRange(order, held, n);
    Arrays.sort(heldOut);
    Arrays.sort(train);
    return new int[][] {train, heldOut};
  }

  private static int[] shuffled(int n, long seed) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Random random = new Random(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return order;
  }

  /** The least time among the slowest {@value #LONG_SHARE} of {@code nanos} (at least one). */
  public static long longThreshold(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int slowest = Math.max(1, (int) Math.ceil(LONG_SHARE * sorted.length));
    return sorted[sorted.length - slowest];
  }

  /** Trains a booster on the rows, with the features at {@code dropped} missing. */
  static Booster fit(
      Dataset data, int[] rows, PredictorModel.Params params, long seed, int[] dropped)
      throws IOException {
    try {
      DMatrix matrix =
          new DMatrix(data.matrix(rows, dropped), rows.length, QueryFeatures.count(), Float.NaN);
      try {
        float[] labels = new float[rows.length];
        for (int i = 0; i < rows.length; i++) {
          labels[i] = (float) Math.log(data.nanos(rows[i]));
        }
        matrix.setLabel(labels);
        return XGBoost.train(matrix, params.xgboost(seed), params.rounds(), Map.of(), null, null);
      } finally {
        matrix.dispose();
      }
    } catch (XGBoostError e) {
      throw new IOException("XGBoost failed to train: " + e.getMessage(), e);
    }
  }

  /** XGBoost's own predictions for the rows, in nanoseconds. */
  static long[] predict(Booster booster, Dataset data, int[] rows, int[] dropped)
      throws IOException {
    try {
      DMatrix matrix =
          new DMatrix(data.matrix(rows, dropped), rows.length, QueryFeatures.count(), Float.NaN);
      try {
        float[][] out = booster.predict(matrix);
        long[] nanos = new long[rows.length];
        for (int i = 0; i < rows.length; i++) {
          nanos[i] = Math.max(1, Math.round(Math.exp(out[i][0])));
        }
        return nanos;
      } finally {
        matrix.dispose();
      }
    } catch (XGBoostError e) {
      throw new IOException("XGBoost failed to predict: " + e.getMessage(), e);
    }
  }

  /** The model's predictions for the rows, through the Java forest that serves them. */
  static long[] predict(PredictorModel model, Dataset data, int[] rows) {
    long[] out = new long[rows.length];
    for (int i = 0; i < rows.length; i++) {
      out[i] = model.predictNanos(data.features(rows[i]));
    }
    return out;
  }
}
