package dev.tailor.core;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.RequestView;

/**
 * What the submitter knows about a request before it runs.
 *
 * @param label a class label for reports (for example a query category), or {@code null}
 * @param predictedSequentialNanos the predicted (or, for a clairvoyant baseline, known) sequential
 *     time in nanoseconds, or {@link RequestView#UNKNOWN}
 * @param predictedSpeedup the predicted (or, for a clairvoyant baseline, known) speedup curve, or
 *     {@code null}
 */
public record RequestAttributes(
    String label, long predictedSequentialNanos, SpeedupCurve predictedSpeedup) {

  /** No label, no prediction. */
  public static final RequestAttributes NONE =
      new RequestAttributes(null, RequestView.UNKNOWN, null);

  /**
   * Checks the prediction.
   *
   * @throws IllegalArgumentException if the prediction is negative and not {@code UNKNOWN}
   */
  public RequestAttributes {
    if (predictedSequentialNanos < 0 && predictedSequentialNanos != RequestView.UNKNOWN) {
      throw new IllegalArgumentException(
          "predictedSequentialNanos must be >= 0 or UNKNOWN, got " + predictedSequentialNanos);
    }
  }

  /** A label and a predicted sequential time, without a speedup curve. */
  public RequestAttributes(String label, long predictedSequentialNanos) {
    this(label, predictedSequentialNanos, null);
  }

  /** A label and no prediction. */
  public static RequestAttributes labelled(String label) {
    return new RequestAttributes(label, RequestView.UNKNOWN);
  }

  /** A prediction and no label. */
  public static RequestAttributes predicted(long sequentialNanos) {
    return new RequestAttributes(null, sequentialNanos);
  }
}
