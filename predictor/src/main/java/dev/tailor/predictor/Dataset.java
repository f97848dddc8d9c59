package dev.tailor.predictor;

import java.util.Arrays;
import java.util.List;

/**
 * Labelled feature vectors: per request its id, its {@link QueryFeatures} and its measured
 * sequential time. Rows are in the profile's order.
 */
public final class Dataset {

  private final List<String> ids;
  private final float[][] features;
  private final long[] nanos;

  /**
   * A dataset.
   *
   * @param ids each request's id
   * @param features {@code features[i]} is request i's feature vector, {@link
   *     QueryFeatures#count()} long
   * @param nanos {@code nanos[i]} is request i's measured sequential time, positive
   * @throws IllegalArgumentException if the lengths disagree, a vector has the wrong length or a
   *     time is not positive
   */
  public Dataset(List<String> ids, float[][] features, long[] nanos) {
    if (ids.size() != features.length || features.length != nanos.length) {
      throw new IllegalArgumentException(
          "ids, features and times disagree in length: "
              + ids.size()
              + ", "
              + features.length
              + ", "
              + nanos.length);
    }
    for (int i = 0; i < features.length; i++) {
      if (features[i].length != QueryFeatures.count()) {
        throw new IllegalArgumentException(
            "row "
                + i
                + " has "
                + features[i].length
                + " features, expected "
                + QueryFeatures.count());
      }
      if (nanos[i] <= 0) {
        throw new IllegalArgumentException("row " + i + " has time " + nanos[i] + ", must be > 0");
      }
    }
    this.ids = List.copyOf(ids);
    this.features = features;
    this.nanos = nanos;
  }

  /** The number of requests. */
  public int size() {
    return nanos.length;
  }

  /** Request i's id. */
  public String id(int i) {
    return ids.get(i);
  }

  /** Request i's features; the caller must not change them. */
  public float[] features(int i) {
    return features[i];
  }

  /** Request i's measured sequential time in nanoseconds. */
  public long nanos(int i) {
    return nanos[i];
  }

  /** The measured times of the given rows. */
  long[] nanos(int[] rows) {
    return Arrays.stream(rows).mapToLong(r -> nanos[r]).toArray();
  }

  /**
   * The given rows as one row-major matrix for XGBoost, with the features at {@code dropped} set
   * missing, so that no tree can split on them.
   */
  float[] matrix(int[] rows, int[] dropped) {
    int n = QueryFeatures.count();
    float[] out = new float[rows.length * n];
    for (int i = 0; i < rows.length; i++) {
      System.arraycopy(features[rows[i]], 0, out, i * n, n);
      for (int d : dropped) {
        out[i * n + d] = Float.NaN;
      }
    }
    return out;
  }
}
