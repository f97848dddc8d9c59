package dev.tailor.studies.balance;

import java.util.PriorityQueue;

/**
 * A discrete-event queue: events in time order, and events at the same time in the order they were
 * scheduled, so that a run is a function of its inputs.
 */
final class Events {

  /** An event: what happens ({@code kind}, the balancer's own code) to what ({@code subject}). */
  record Event(long time, long sequence, int kind, int subject, long stamp) {}

  private final PriorityQueue<Event> queue =
      new PriorityQueue<>(
          (a, b) ->
              a.time != b.time
                  ? Long.compare(a.time, b.time)
                  : Long.compare(a.sequence, b.sequence));
  private long sequence;

  /** Schedules an event; {@code stamp} lets the balancer recognise one it has since cancelled. */
  void at(long time, int kind, int subject, long stamp) {
    queue.add(new Event(time, sequence++, kind, subject, stamp));
  }

  /** Schedules an event that is never cancelled. */
  void at(long time, int kind, int subject) {
    at(time, kind, subject, 0);
  }

  /** The next event, or null when none is left. */
  Event next() {
    return queue.poll();
  }
}
