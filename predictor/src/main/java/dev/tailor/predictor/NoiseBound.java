package dev.tailor.predictor;

import dev.tailor.measure.DemandProfile;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The best any projection could do on a profile, given measurement noise: how well a second profile
 * of the same trace on the same index, its requests measured again, finds the first's slowest 5%. A
 * projection estimates a request's time as measured once; it cannot agree with that measurement
 * better than a second measurement does.
 *
 * <p>A request is <em>slow</em> when its time in the first profile is at or above the first's long
 * threshold ({@link Trainer#longThreshold}: the {@code ceil(n / 20)}-th largest), as in {@link
 * ProjectionReport}; it is <em>flagged</em> when its time in the second profile is at or above the
 * second's own long threshold, so that both pick out the same number of requests and a second run
 * that is a little faster or slower throughout changes nothing. The error is the relative L1, mean
 * |second - first| over mean first.
 *
 * @param requests the requests compared, every request of the first profile
 * @param thresholdNanos the first profile's long threshold
 * @param secondThresholdNanos the second profile's long threshold
 * @param slow requests slow by the first profile
 * @param flagged requests flagged by the second profile
 * @param flaggedSlow requests both slow and flagged
 * @param relativeL1 mean |second - first| over mean first
 */
public record NoiseBound(
    int requests,
    long thresholdNanos,
    long secondThresholdNanos,
    int slow,
    int flagged,
    int flaggedSlow,
    double relativeL1) {

  /** Flagged slow requests over slow ones; NaN if none is slow. */
  public double recall() {
    return slow == 0 ? Double.NaN : (double) flaggedSlow / slow;
  }

  /** Flagged slow requests over flagged ones; NaN if none is flagged. */
  public double precision() {
    return flagged == 0 ? Double.NaN : (double) flaggedSlow / flagged;
  }

  /**
   * Compares the second profile's measured sequential times with the first's, request by request.
   *
   * @param first the profile the projection is scored on, with a request at least
   * @param second a profile of the same requests, matched by id
   * @throws IllegalArgumentException if the first profile has no request, or a request of either
   *     profile is not in the other (naming the first such id)
   */
  public static NoiseBound of(DemandProfile first, DemandProfile second) {
    List<DemandProfile.Request> requests = first.requests();
    int n = requests.size();
    if (n == 0) {
      throw new IllegalArgumentException("requests: the profile has no request");
    }
    Map<String, Long> secondTimes = new HashMap<>();
    for (DemandProfile.Request r : second.requests()) {
      secondTimes.putIfAbsent(r.id(), r.sequentialNanos());
    }
    Set<String> firstIds = new HashSet<>();
    long[] actual = new long[n];
    long[] again = new long[n];
    for (int i = 0; i < n; i++) {
      DemandProfile.Request r = requests.get(i);
      Long t = secondTimes.get(r.id());
      if (t == null) {
        throw new IllegalArgumentException(
            "has no request with id "
                + r.id()
                + ", which the first profile has: not a profile of the same queries");
      }
      firstIds.add(r.id());
      actual[i] = r.sequentialNanos();
      again[i] = t;
    }
    for (DemandProfile.Request r : second.requests()) {
      if (!firstIds.contains(r.id())) {
        throw new IllegalArgumentException(
            "has a request with id "
                + r.id()
                + ", which the first profile has not: not a profile of the same queries");
      }
    }
    return compare(actual, again);
  }

  private static NoiseBound compare(long[] actual, long[] again) {
    long threshold = Trainer.longThreshold(actual);
    long secondThreshold = Trainer.longThreshold(again);
    int slow = 0, flagged = 0, both = 0;
    double error = 0, measured = 0;
    for (int i = 0; i < actual.length; i++) {
      boolean s = actual[i] >= threshold;
      boolean f = again[i] >= secondThreshold;
      slow += s ? 1 : 0;
      flagged += f ? 1 : 0;
      both += s && f ? 1 : 0;
      error += Math.abs(again[i] - actual[i]);
      measured += actual[i];
    }
    return new NoiseBound(
        actual.length, threshold, secondThreshold, slow, flagged, both, error / measured);
  }
}
