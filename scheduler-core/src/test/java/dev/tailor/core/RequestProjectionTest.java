package dev.tailor.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.model.Projection;
import dev.tailor.core.policy.RequestView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request's projection ({@link RequestView#projectedSequentialNanos()}) from the windows its code
 * reports through {@link RequestContext}, on a clock the test moves, so that the work done is
 * exact.
 */
class RequestProjectionTest {

  private final AtomicLong clock = new AtomicLong(1_000_000);
  private Scheduler scheduler;

  private Scheduler start() {
    scheduler =
        Scheduler.builder()
            .policy(new ControlledPolicy())
            .workers(1)
            .quantum(Duration.ofMillis(2))
            .clock(clock::get)
            .build();
    return scheduler;
  }

  @AfterEach
  void stop() throws InterruptedException {
    scheduler.shutdownNow();
    assertTrue(scheduler.awaitTermination(Waits.GUARD_SECONDS, SECONDS), "scheduler terminated");
  }

  /**
   * Runs 4 windows of 4, 2, 2 and 2 us after 1 us of serial work, reporting each, and returns the
   * projection before the first window and after each.
   */
  private List<Long> projections(RequestAttributes attributes) throws Exception {
    long[] windows = {4_000, 2_000, 2_000, 2_000};
    return start()
        .run(
            ctx -> {
              List<Long> seen = new ArrayList<>();
              clock.addAndGet(1_000);
              ctx.windowsPlanned(windows.length);
              seen.add(ctx.view().projectedSequentialNanos());
              for (long w : windows) {
                clock.addAndGet(w);
                ctx.windowsFinished(1, w);
                seen.add(ctx.view().projectedSequentialNanos());
              }
              return seen;
            },
            attributes);
  }

  @Test
  void withAPredictionTheProjectionIsProjectionsRuleWithThePredictionAsItsPrior() throws Exception {
    Projection rule = Projection.of(4, 12_000);
    assertEquals(
        List.of(
            12_000L,
            rule.sequentialNanos(1, 4_000, 5_000),
            rule.sequentialNanos(2, 6_000, 7_000),
            rule.sequentialNanos(3, 8_000, 9_000),
            rule.sequentialNanos(4, 10_000, 11_000)),
        projections(RequestAttributes.predicted(12_000)));
  }

  @Test
  void withoutAPredictionItIsUnknownUntilAWindowHasFinished() throws Exception {
    // 1 us of serial work, then windows of 4, 2, 2, 2 us: extrapolated at the pace seen so far.
    assertEquals(
        List.of(RequestView.UNKNOWN, 5_000L + 12_000, 7_000L + 6_000, 9_000L + 2_667, 11_000L),
        projections(RequestAttributes.NONE));
  }

  @Test
  void badReportsAreClampedRatherThanThrown() throws Exception {
    long projected =
        start()
            .run(
                ctx -> {
                  clock.addAndGet(1_000);
                  ctx.windowsFinished(-1, 5); // ignored
                  ctx.windowsPlanned(2);
                  ctx.windowsFinished(3, 1_000_000); // more windows and time than there are
                  ctx.windowsFinished(1, -7); // ignored
                  return ctx.view().projectedSequentialNanos();
                },
                RequestAttributes.predicted(50_000));
    assertEquals(
        Projection.of(2, 50_000).sequentialNanos(2, 1_000, 1_000),
        projected,
        "both windows finished, in no more time than the work done");
  }
}
