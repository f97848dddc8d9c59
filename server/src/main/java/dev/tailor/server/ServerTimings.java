package dev.tailor.server;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.metrics.RequestRecord;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;

/**
 * Hands each search of a {@link SearchServer} the scheduler's record of it, so that the response
 * can say what its served time was made of: the standard {@code Server-Timing} header, {@code
 * queued;dur=0.012, dispatch;dur=0.003, run;dur=1.234} (milliseconds: arrival to admitted, admitted
 * to first running, first running to the last thread's end), which a load client adds to its own
 * send lag and completion time. Install it as the scheduler's listener and give it to the server:
 *
 * <pre>{@code
 * ServerTimings timings = new ServerTimings();
 * Scheduler scheduler = Scheduler.builder().listener(timings).build();
 * new SearchServer(new TailorSearcher(reader, scheduler), analyzer, field, options, null, timings);
 * }</pre>
 *
 * <p>The scheduler reports a request before its future completes, so a record has always arrived
 * when the search that waits for it returns.
 */
public final class ServerTimings implements SchedulerListener {

  /** The name of the HTTP response header. */
  public static final String HEADER = "Server-Timing";

  private final ConcurrentHashMap<Long, Slot> expected = new ConcurrentHashMap<>();

  /** Where one search's record lands; written by the thread that completed the request. */
  static final class Slot {
    private volatile RequestRecord record;

    /** The header's value for the record, or null if none came (the request never ran). */
    String header() {
      RequestRecord r = record;
      return r == null ? null : headerOf(r);
    }
  }

  /** Expects the record of request {@code id}, into a new slot. */
  Slot expect(long id) {
    Slot slot = new Slot();
    expected.put(id, slot);
    return slot;
  }

  /** A search to run inside the request. */
  @FunctionalInterface
  interface Search<T> {
    T run() throws IOException;
  }

  /** A search's result with its {@code Server-Timing} value (null if no record came). */
  record Timed<T>(T result, String header) {}

  /**
   * Runs {@code search} on this thread in a request of {@code scheduler}'s own, whose record this
   * listener then hands back with the result. The scheduler must report to this listener.
   *
   * @throws RejectedExecutionException if the admission queue is full or the scheduler shut down
   * @throws CancellationException if the request was cancelled or the thread interrupted
   */
  <T> Timed<T> run(Scheduler scheduler, RequestAttributes attributes, Search<T> search)
      throws IOException {
    Slot[] slot = new Slot[1];
    T result;
    try {
      result =
          SchedulerInternals.run(
              scheduler,
              ctx -> {
                slot[0] = expect(ctx.view().id());
                return search.run();
              },
              attributes);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while waiting for admission");
    } catch (Exception e) {
      throw new IOException(e);
    }
    // The scheduler reports a request before its future completes: the record is in the slot.
    return new Timed<>(result, slot[0] == null ? null : slot[0].header());
  }

  @Override
  public void requestCompleted(RequestRecord record) {
    Slot slot = expected.remove(record.id());
    if (slot != null) {
      slot.record = record;
    }
  }

  /** Searches whose record has not come yet: none once every search has answered. */
  int awaiting() {
    return expected.size();
  }

  /**
   * The {@code Server-Timing} value for a record, durations in milliseconds to the nanosecond: the
   * one writer of the format the load client's {@code ServerTiming.parse} reads.
   */
  public static String headerOf(RequestRecord r) {
    return String.format(
        Locale.ROOT,
        "queued;dur=%.6f, dispatch;dur=%.6f, run;dur=%.6f",
        r.queueingNanos() / 1e6,
        r.dispatchNanos() / 1e6,
        r.runNanos() / 1e6);
  }
}
