package dev.tailor.core;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reports the failures a scheduler survives (a policy or a listener that throws, an internal error
 * on a scheduler thread) without a log storm: the first failure of each kind is logged at {@code
 * WARNING} with its stack trace, later ones of that kind are only counted, and every one is
 * recorded as a JDK Flight Recorder event ({@code dev.tailor.Failure}), which costs nothing while
 * no recording is on. A policy that throws at every question is asked thousands of times a second;
 * one log line says it is broken as well as a million would.
 *
 * <p>Thread-safe, and {@link #report} never throws: whatever goes wrong while reporting (a logging
 * handler that throws, no memory left) is dropped, so that the guard around a failure cannot itself
 * fail the thread it protects.
 */
@Internal
public final class FailureLog {

  private final System.Logger log;
  private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

  /** A log that writes the first failure of each kind to {@code log}. */
  public FailureLog(System.Logger log) {
    this.log = log;
  }

  /**
   * Records a failure of {@code kind}; logs it if it is the first of its kind.
   *
   * @param kind what failed, e.g. {@code policy.degree}: failures of one kind are logged once
   * @param consequence what the scheduler did about it, e.g. "the degree is kept"
   */
  public void report(String kind, String consequence, Throwable failure) {
    try {
      LongAdder count = counts.get(kind);
      boolean first = false;
      if (count == null) {
        LongAdder fresh = new LongAdder();
        count = counts.putIfAbsent(kind, fresh);
        if (count == null) {
          count = fresh;
          first = true;
        }
      }
      count.increment();
      SchedulerEvents.Failure e = new SchedulerEvents.Failure();
      if (e.shouldCommit()) {
        e.kind = kind;
        e.consequence = consequence;
        e.failure = String.valueOf(failure);
        e.commit();
      }
      if (first) {
        log.log(
            System.Logger.Level.WARNING,
            kind
                + " failed; "
                + consequence
                + ". Later failures of this kind are counted, not logged.",
            failure);
      }
    } catch (Throwable ignored) {
      // Reporting is best effort: the failure itself has already been survived.
    }
  }

  /** How many failures of {@code kind} were reported. */
  public long count(String kind) {
    LongAdder c = counts.get(kind);
    return c == null ? 0 : c.sum();
  }

  /** How many failures of each kind reported so far, by kind in name order; a copy. */
  public Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((kind, c) -> out.put(kind, c.sum()));
    return out;
  }

  /** How many failures of every kind were reported. */
  public long total() {
    long sum = 0;
    for (LongAdder c : counts.values()) {
      sum += c.sum();
    }
    return sum;
  }
}
