package dev.tailor.predictor;

import dev.tailor.measure.DemandProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic training data: random feature vectors whose time is a function of one feature, {@code
 * docFreq.max}, so that a model that learns it predicts well and one without it cannot.
 */
final class Synthetic {

  static final int FEATURE = QueryFeatures.NAMES.indexOf("docFreq.max");

  private Synthetic() {}

  /** The time the synthetic workload gives a row: 50 µs times e to the feature. */
  static long nanos(float[] row) {
    return Math.round(50_000 * Math.exp(row[FEATURE]));
  }

  static ProfileData data(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> ids = new ArrayList<>();
    float[][] rows = new float[n][];
    long[] nanos = new long[n];
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      float[] row = new float[QueryFeatures.count()];
      for (int j = 0; j < row.length; j++) {
        row[j] = (float) (random.nextDouble() * 4);
      }
      rows[i] = row;
      nanos[i] = nanos(row);
      ids.add(Integer.toString(i));
      requests.add(
          new DemandProfile.Request(
              ids.get(i),
              null,
              "q" + i,
              nanos[i],
              new long[] {nanos[i]},
              new double[] {1},
              new double[0],
              new DemandProfile.Features("TermQuery", 1, new long[] {1}, 1)));
    }
    DemandProfile profile =
        DemandProfile.of(
            new DemandProfile.Environment(
                "idx", "synthetic", 1000, "trace.txt", 1, "25", "linux", "t"),
            new DemandProfile.Settings(1, 1, 1, 1),
            true,
            requests);
    return new ProfileData(
        profile,
        Path.of("synthetic.json"),
        "sha256:" + "0".repeat(64),
        Path.of("idx"),
        Path.of("trace.txt"),
        new Dataset(ids, rows, nanos));
  }

  /** Small, fast parameters: the tests check behaviour, not accuracy at scale. */
  static Trainer.Options options() {
    return new Trainer.Options(new PredictorModel.Params(60, 4, 0.2, 1, 1, 1, 1), 7, 0.2);
  }
}
