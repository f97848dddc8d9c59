package dev.tailor.core.policy;

import dev.tailor.core.model.SpeedupCurve;

/** A request view whose every value a test sets. */
final class FakeRequest implements RequestView {
  long id = 1;
  long elapsed;
  long work;
  int degree = 1;
  int threads = 1;
  long predicted = UNKNOWN;
  Long projected; // null: the prediction, as a view that follows no windows answers
  SpeedupCurve speedup;
  boolean isLong;

  @Override
  public long id() {
    return id;
  }

  @Override
  public long arrivalNanos() {
    return 0;
  }

  @Override
  public long startNanos() {
    return 0;
  }

  @Override
  public long elapsedNanos() {
    return elapsed;
  }

  @Override
  public long workNanos() {
    return work;
  }

  @Override
  public int degree() {
    return degree;
  }

  @Override
  public int threads() {
    return threads;
  }

  @Override
  public long predictedSequentialNanos() {
    return predicted;
  }

  @Override
  public long projectedSequentialNanos() {
    return projected == null ? predicted : projected;
  }

  @Override
  public SpeedupCurve predictedSpeedup() {
    return speedup;
  }

  @Override
  public String label() {
    return null;
  }

  @Override
  public boolean isLong() {
    return isLong;
  }
}
