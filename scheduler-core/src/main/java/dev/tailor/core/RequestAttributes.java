package dev.tailor.core;

import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import java.util.Objects;

/**
 * What the submitter knows about a request before it runs.
 *
 * @param label a class label for reports (for example a query category), or {@code null}
 * @param predictedSequentialNanos the predicted (or, for a clairvoyant baseline, known) sequential
 *     time in nanoseconds, or {@link RequestView#UNKNOWN}
 * @param predictedSpeedup the predicted (or, for a clairvoyant baseline, known) speedup curve, or
 *     {@code null}
 * @param priority the request's priority class: who gets a free slot first ({@link PriorityClass})
 */
public record RequestAttributes(
    String label,
    long predictedSequentialNanos,
    SpeedupCurve predictedSpeedup,
    PriorityClass priority) {

  /** No label, no prediction, the default (interactive) class. */
  public static final RequestAttributes NONE =
      new RequestAttributes(null, RequestView.UNKNOWN, null);

  /**
   * Checks the prediction and the class.
   *
   * @throws IllegalArgumentException if the prediction is negative and not {@code UNKNOWN}
   * @throws NullPointerException if the class is null
   */
  public RequestAttributes {
    Objects.requireNonNull(priority, "priority");
    if (predictedSequentialNanos < 0 && predictedSequentialNanos != RequestView.UNKNOWN) {
      throw new IllegalArgumentException(
          "predictedSequentialNanos must be >= 0 or UNKNOWN, got " + predictedSequentialNanos);
    }
  }

  /** A label and a prediction, in the default (interactive) class. */
  public RequestAttributes(
      String label, long predictedSequentialNanos, SpeedupCurve predictedSpeedup) {
    this(label, predictedSequentialNanos, predictedSpeedup, PriorityClass.INTERACTIVE);
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

  /** These attributes with the priority class {@code priority}. */
  public RequestAttributes withPriority(PriorityClass priority) {
    return new RequestAttributes(label, predictedSequentialNanos, predictedSpeedup, priority);
  }
}
