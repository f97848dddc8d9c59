package dev.tailor.predictor;

import dev.tailor.core.table.Digests;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * What the {@code predictor} commands print of a model: what a training run produced and how it
 * scored, a model file's record, and a profile's predictions against its measured times.
 */
public final class ModelReport {

  private ModelReport() {}

  /**
   * Prints what training on {@code data} (read from {@code profile}) produced: the split, the
   * model's size, the long class's threshold, the metrics on the training and held-out requests,
   * and the held-out metrics of each retraining without one feature family.
   */
  public static void printTraining(
      Trainer.Result r, ProfileData data, Path profile, long seed, PrintWriter out) {
    PredictorModel model = r.model();
    out.printf(
        Locale.ROOT,
        "trained on %d of %d requests of %s (index %s, %d docs; trace %s); %d held out (seed"
            + " %d); %d trees, %d features (%s)%n",
        r.trainRows().length,
        data.data().size(),
        profile.getFileName(),
        data.index(),
        model.training().indexDocs(),
        data.trace().getFileName(),
        r.heldOutRows().length,
        seed,
        model.trees(),
        QueryFeatures.count(),
        model.featureSet());
    out.printf(
        Locale.ROOT,
        "  long = the slowest 5%% of the training requests: >= %.3f ms%n",
        model.training().longThresholdNanos() / 1e6);
    out.println("  training: " + r.training().describe());
    if (r.heldOut() != null) {
      out.println("  held out: " + r.heldOut().describe());
    }
    if (!r.ablation().isEmpty()) {
      out.println("  ablation (held out, retrained without one family):");
      for (Trainer.Ablation a : r.ablation()) {
        Metrics m = a.heldOut();
        out.printf(
            Locale.ROOT,
            "    without %-14s L1 %.3f ms (%+.3f), corr(log) %.3f (%+.3f), recall %.2f,"
                + " precision %.2f%n",
            a.dropped().label() + ":",
            m.l1Millis(),
            m.l1Millis() - r.heldOut().l1Millis(),
            m.logCorrelation(),
            m.logCorrelation() - r.heldOut().logCorrelation(),
            m.recall(),
            m.precision());
      }
    }
  }

  /**
   * Prints the label noise no model can beat: how well {@code other}'s times (a second profile of
   * the same queries, read from {@code otherFile}) predict the first's, on the held-out requests of
   * {@code r} and on all of them at its long threshold.
   *
   * @throws IOException if the profiles cannot be matched
   */
  public static void printNoiseBound(
      Trainer.Result r, ProfileData data, DemandProfile other, Path otherFile, PrintWriter out)
      throws IOException {
    long threshold = r.model().training().longThresholdNanos();
    if (r.heldOutRows().length > 0) {
      out.println(
          "  noise bound, "
              + otherFile.getFileName()
              + "'s times as predictions, held out: "
              + Trainer.agreement(data, other, otherFile, r.heldOutRows(), threshold).describe());
    }
    out.println(
        "  noise bound, all requests: "
            + Trainer.agreement(data, other, otherFile, all(data), threshold).describe());
  }

  /**
   * Predicts every request by {@code k} models that did not see it and prints their metrics on all
   * requests, the long class then the slowest of the whole profile; with {@code other} (else null),
   * the noise bound at that threshold too.
   *
   * @throws IOException if XGBoost fails
   */
  public static void printCrossValidated(
      ProfileData data,
      PredictorModel.Params params,
      long seed,
      int k,
      DemandProfile other,
      Path otherFile,
      PrintWriter out)
      throws IOException {
    long[] predicted = Trainer.crossFit(data.data(), params, seed, k);
    long[] actual = actualNanos(data.data());
    long threshold = Trainer.longThreshold(actual);
    out.println(
        "  cross-validated ("
            + k
            + " folds), all requests: "
            + Metrics.of(actual, predicted, threshold).describe());
    if (other != null) {
      out.println(
          "  noise bound at that threshold: "
              + Trainer.agreement(data, other, otherFile, all(data), threshold).describe());
    }
  }

  private static int[] all(ProfileData data) {
    return IntStream.range(0, data.data().size()).toArray();
  }

  /** Prints a model file's record: its features, what it was trained on, its held-out metrics. */
  public static void printModel(Path file, PredictorModel m, PrintWriter out) {
    PredictorModel.Training t = m.training();
    out.printf("%s: %s, trained %s%n", file, PredictorModel.TARGET, m.trainedAt());
    out.printf(
        "  features: %s, %d: %s%n",
        m.featureSet(), m.featureNames().size(), String.join(" ", m.featureNames()));
    out.printf(
        Locale.ROOT,
        "  trained on: %s (%s), %d requests, index %s (%d docs), trace %s%n",
        t.profile(),
        t.profileDigest(),
        t.queries(),
        t.index(),
        t.indexDocs(),
        t.trace());
    out.printf(
        Locale.ROOT,
        "  seed %d, held out %.0f%%, long >= %.3f ms; xgboost: %s; %d trees%n",
        t.seed(),
        100 * t.holdout(),
        t.longThresholdNanos() / 1e6,
        t.params(),
        m.trees());
    out.println("  held out: " + (m.heldOut() == null ? "none" : m.heldOut().describe()));
  }

  /**
   * Every request's prediction by the model in {@code modelFile}: by the model as it is, or with
   * {@code crossFit} K (null for none) by K models of its parameters, each predicting the fold it
   * did not see.
   *
   * @throws IllegalArgumentException if K is not within 2 and the requests
   * @throws IOException if the file cannot be read or XGBoost fails
   */
  public static DemandProfile.Predictions predict(
      PredictorModel m, Path modelFile, Dataset data, Integer crossFit) throws IOException {
    long[] predicted;
    if (crossFit != null) {
      predicted = Trainer.crossFit(data, m.training().params(), m.training().seed(), crossFit);
    } else {
      predicted = new long[data.size()];
      for (int i = 0; i < predicted.length; i++) {
        predicted[i] = m.predictNanos(data.features(i));
      }
    }
    return new DemandProfile.Predictions(
        modelFile.getFileName().toString(),
        Digests.sha256(modelFile),
        crossFit != null ? "cross-fit " + crossFit : DemandProfile.Predictions.MODEL,
        predicted);
  }

  /** The requests' measured sequential times, in the data's order. */
  public static long[] actualNanos(Dataset data) {
    long[] actual = new long[data.size()];
    for (int i = 0; i < actual.length; i++) {
      actual[i] = data.nanos(i);
    }
    return actual;
  }
}
