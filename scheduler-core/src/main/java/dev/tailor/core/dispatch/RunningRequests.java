package dev.tailor.core.dispatch;

import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import java.util.Arrays;

/**
 * The running requests of the dispatch core, oldest admission first, as a copy-on-write array: the
 * runtime's lock-free paths (the tick, a unit fork, a helper's boundary) read it without the host's
 * exclusion; it changes only under it.
 *
 * @param <R> the host's request type
 */
final class RunningRequests<R extends RequestView> {

  private final R[] none;
  private volatile R[] all;
  private volatile boolean lowerClassRuns; // some running request is below the highest class

  RunningRequests(R[] none) {
    this.none = none;
    this.all = none;
  }

  /** The running requests, oldest admission first. The array must not be modified. */
  R[] all() {
    return all;
  }

  /** Whether some running request is of a class below the highest. */
  boolean lowerClassRuns() {
    return lowerClassRuns;
  }

  /** An admitted request joins the running ones; {@code lowerClass} if below the highest class. */
  void add(R request, boolean lowerClass) {
    R[] rs = Arrays.copyOf(all, all.length + 1);
    rs[rs.length - 1] = request;
    if (lowerClass) {
      lowerClassRuns = true;
    }
    all = rs;
  }

  /** A running request leaves. */
  void remove(R request) {
    R[] rs = all;
    int i = 0;
    while (rs[i] != request) {
      i++;
    }
    R[] out = Arrays.copyOf(none, rs.length - 1);
    System.arraycopy(rs, 0, out, 0, i);
    System.arraycopy(rs, i + 1, out, i, rs.length - i - 1);
    all = out;
    lowerClassRuns = anyBelowHighest(out);
  }

  private static boolean anyBelowHighest(RequestView[] rs) {
    for (RequestView r : rs) {
      PriorityClass c = r.priorityClass();
      if (c != null && c.ordinal() > 0) {
        return true;
      }
    }
    return false;
  }
}
