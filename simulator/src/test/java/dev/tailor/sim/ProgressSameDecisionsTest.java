package dev.tailor.sim;

import static dev.tailor.sim.UnevenRequest.MS;
import static dev.tailor.sim.UnevenRequest.SERIAL;
import static dev.tailor.sim.UnevenRequest.UNITS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.ManualClock;
import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.model.GuidedClaims;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.ProgressPolicy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The progress-aware policy decides alike in the runtime and in the simulator's unit model: one
 * request of uneven windows, its own thread alone, claiming as a request whose progress is watched
 * claims ({@link GuidedClaims#probingSize}); after every claim the policy is asked for its degree,
 * in the runtime on the request's view (windows reported through its context, on a clock the test
 * moves) and in the simulator on the unit model's request. Both must see the same windows finish,
 * project the same time and get the same answers: more threads while the projection says it misses
 * its target, serialization once it passes the threshold.
 */
class ProgressSameDecisionsTest {

  private static final long PRIOR = 20 * MS;

  /** One request in the system, on a budget of 8 with 1 busy worker. */
  private static SystemView system(AtomicLong clock) {
    return UnevenRequest.system(clock::get, 8);
  }

  /** P = 4, a 40 ms target at every load; thresholds of 70 ms with one request in the system. */
  private static ProgressPolicy policy() {
    TargetTable.Inputs in =
        new TargetTable.Inputs(
            "p.json",
            "sha256:" + "0".repeat(64),
            1,
            null,
            null,
            "known",
            8,
            4,
            new double[] {100},
            new double[] {1},
            0.99,
            MS,
            1,
            "units",
            TargetTable.LoadMetric.LONG_THREADS);
    SpeedupCurve linear = SpeedupCurve.of(1, 2, 3, 4);
    TargetTable targets =
        new TargetTable(
            in,
            new TargetTable.Groups(30 * MS, 80 * MS, linear, linear, linear),
            List.of(new TargetTable.Row(TargetTable.INFINITE, 40 * MS)),
            "now",
            0,
            new TargetTable.Search(0, 1, 0, 0));
    ThresholdTable thresholds =
        new ThresholdTable(
            new ThresholdTable.Inputs("t", null, 1, 1, "exact", MS, MS, 1, 4, 0.5, 1),
            List.of(new ThresholdTable.Row(1, 70 * MS, 1)),
            "now",
            0);
    return ProgressPolicy.of(TableSource.fixed(targets), TableSource.fixed(thresholds));
  }

  private static String step(int windowsDone, RequestView view, int degree) {
    return windowsDone + " windows: projected " + view.projectedSequentialNanos() + ", " + degree;
  }

  private static List<String> runtime() throws Exception {
    AtomicLong clock = new AtomicLong(5 * MS);
    SystemView system = system(clock);
    try (ProgressPolicy policy = policy();
        Scheduler scheduler =
            ManualClock.on(
                    Scheduler.builder()
                        .policy(policy)
                        .workers(1)
                        .tuning(Tuning.defaults().withQuantum(Duration.ofSeconds(10))),
                    clock::get)
                .build()) {
      return SchedulerInternals.run(
          scheduler,
          ctx -> {
            assertTrue(ctx.scheduler().policy().watchesProgress(), "the policy watches progress");
            List<String> log = new ArrayList<>();
            clock.addAndGet(SERIAL);
            ctx.windowsPlanned(UNITS.length);
            int done = 0;
            while (done < UNITS.length) {
              int n =
                  GuidedClaims.probingSize(
                      UNITS.length - done, 1, false, PriorityClass.INTERACTIVE, done);
              long nanos = 0;
              for (int i = done; i < done + n; i++) {
                nanos += UNITS[i];
              }
              clock.addAndGet(nanos);
              ctx.windowsFinished(n, nanos);
              done += n;
              log.add(step(done, ctx.view(), policy.degree(ctx.view(), system)));
            }
            return log;
          },
          RequestAttributes.predicted(PRIOR));
    }
  }

  private static List<String> simulated() {
    AtomicLong clock = new AtomicLong();
    SystemView system = system(clock);
    DemandProfile.Request demand = UnevenRequest.demand();
    UnitRequest r =
        new UnitRequest(
            0,
            0,
            demand,
            demand.unitWork(),
            system,
            new SimRequest.Told(PRIOR, false, Long.MAX_VALUE),
            true,
            dev.tailor.core.model.GuidedClaims.PROMPT_NANOS);
    ProgressPolicy policy = policy();
    List<String> log = new ArrayList<>();
    r.start(1, 0);
    while (!r.done()) {
      clock.set(r.nextEventAt());
      r.advance(clock.get());
      long windows = clock.get() - SERIAL;
      int k = 0;
      for (long sum = 0; k < UNITS.length && sum + UNITS[k] <= windows; k++) {
        sum += UNITS[k];
      }
      if (k > 0) {
        log.add(step(k, r, policy.degree(r, system)));
      }
    }
    return log;
  }

  @Test
  void theRuntimeAndTheUnitModelProjectAndDecideAlike() throws Exception {
    List<String> simulated = simulated();
    assertEquals(simulated, runtime());
    assertEquals(
        List.of(1, 2, 4, 8, 12, 14, 15, 16),
        simulated.stream().map(s -> Integer.parseInt(s.split(" ")[0])).toList(),
        "claims of 1, 1, 2, 4, 4, 2, 1, 1 windows: " + simulated);
    // After the first window (9 ms, the heaviest) it projects 83.5 ms, past the 70 ms threshold:
    // serialized. After two, 62 ms: 49 ms left, 27 ms to its target, 49 / 2 = 24.5: two threads;
    // after eight, still short of its target at two: P.
    assertEquals(
        List.of(0, 2, 2, 4, 4, 4, 4, 4),
        simulated.stream().map(s -> Integer.parseInt(s.substring(s.lastIndexOf(' ') + 1))).toList(),
        simulated.toString());
  }
}
