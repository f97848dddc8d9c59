package dev.tailor.tables;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * BUILDTARGETTABLE, TPC's search for the targets (Jeon et al., ASPLOS'16, §3.3, Algorithm 1): from
 * the initial targets, try raising each entry by δ alone, measure the weighted tail of each such
 * table, and take the best if it beats the current one; stop when no single step helps. The m
 * measurements of a round are independent, so they run on the given executor; the choice among
 * equal tails goes to the lowest entry, so the result does not depend on the order they finish in.
 *
 * <p>One extension, off when {@code maxStepNanos == stepNanos}: when no step of δ helps, the round
 * is tried again with 2δ, 4δ, ... up to the largest step before the search stops, and the next
 * round starts from δ again. A simulated tail is flat in a single entry over long stretches (a step
 * of one row moves few requests), so the paper's search, fine-grained where every millisecond
 * counts, stops on the first such plateau far below the targets a loaded server needs. The paper
 * notes that δ trades search time against quality; this keeps δ's resolution and crosses the
 * plateaus.
 */
final class TargetSearch {

  /** MeasureTail: the weighted tail of a table's targets. Thread-safe. */
  @FunctionalInterface
  interface Measure {
    double tail(long[] targetsNanos);
  }

  /**
   * The search's outcome.
   *
   * @param targetsNanos the final targets
   * @param iterations the steps taken
   * @param measurements the tables measured
   * @param initialTail the initial table's weighted tail
   * @param finalTail the final table's
   */
  record Result(
      long[] targetsNanos,
      int iterations,
      int measurements,
      double initialTail,
      double finalTail) {}

  private TargetSearch() {}

  /**
   * Runs Algorithm 1.
   *
   * @param initial Φ0's targets
   * @param stepNanos δ
   * @param maxStepNanos the largest step tried when no smaller one helps; {@code stepNanos} for the
   *     paper's search
   * @param maxIterations a bound on the steps (the paper's bound is {@code m·E_max/δ}), so that a
   *     tail that keeps falling by noise cannot run forever
   * @param executor runs a round's measurements; null to run them on this thread
   */
  static Result run(
      long[] initial,
      long stepNanos,
      long maxStepNanos,
      int maxIterations,
      Measure measure,
      ExecutorService executor) {
    long[] current = initial.clone();
    double currentTail = measure.tail(current);
    double initialTail = currentTail;
    int measurements = 1;
    int iterations = 0;
    long step = stepNanos;
    while (iterations < maxIterations) {
      double[] tails = round(current, step, measure, executor);
      measurements += tails.length;
      int best = 0;
      for (int i = 1; i < tails.length; i++) {
        if (tails[i] < tails[best]) {
          best = i;
        }
      }
      if (!(tails[best] < currentTail)) {
        if (step * 2 > maxStepNanos) {
          break;
        }
        step *= 2; // a plateau at this step: look further before stopping
        continue;
      }
      current[best] += step;
      currentTail = tails[best];
      iterations++;
      step = stepNanos;
    }
    return new Result(current, iterations, measurements, initialTail, currentTail);
  }

  private static double[] round(
      long[] current, long stepNanos, Measure measure, ExecutorService executor) {
    int m = current.length;
    double[] tails = new double[m];
    if (executor == null) {
      for (int i = 0; i < m; i++) {
        tails[i] = measure.tail(stepped(current, i, stepNanos));
      }
      return tails;
    }
    List<Future<Double>> futures = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      long[] candidate = stepped(current, i, stepNanos);
      futures.add(executor.submit(() -> measure.tail(candidate)));
    }
    try {
      for (int i = 0; i < m; i++) {
        tails[i] = futures.get(i).get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      futures.forEach(f -> f.cancel(true));
      throw new IllegalStateException("interrupted while measuring the target tables", e);
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    }
    return tails;
  }

  private static long[] stepped(long[] current, int i, long stepNanos) {
    long[] next = current.clone();
    next[i] += stepNanos;
    return next;
  }
}
