package dev.tailor.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.dispatch.Dispatcher;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.measure.DemandProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;

/**
 * One scripted scenario through the runtime (real threads, wall clock) and the simulator (virtual
 * clock): both drive the same dispatch core, so they make the same decisions in the same order.
 *
 * <p>Two threads. Request 0 starts with degree 2 and, once its units exist, takes a helper;
 * requests 1 and 2 arrive while both threads are busy. When the helper leaves, request 1 is asked
 * and waits for an exit; when request 0 exits, request 1 starts and request 2 is delayed, then
 * starts when its delay is over.
 */
class SameDecisionsTest {

  private static final long MS = 1_000_000L;

  private static final List<String> EXPECTED =
      List.of("START 0 2", "HELP 0 1", "AWAIT_EXIT 1", "START 1 1", "DELAY 2", "START 2 1");

  @RepeatedTest(20) // the runtime's interleavings differ from run to run; the decisions must not
  void theRuntimeDecidesAsTheSimulatorDoes() throws Exception {
    List<String> simulated = simulate();
    assertEquals(EXPECTED, simulated, "the simulator's decisions");
    assertEquals(simulated, runtime(), "the runtime's decisions, in the same order");
  }

  private static List<String> simulate() {
    List<String> log = new ArrayList<>();
    DemandProfile profile =
        DemandProfile.of(
            new DemandProfile.Environment("i", "test", 1, "t", 2, "j", "o", "now"),
            new DemandProfile.Settings(1, 2, 1, 2),
            true,
            List.of(request("0", 3, 1), request("1", 1), request("2", 1)));
    Simulator.Config config =
        new Simulator.Config(2, MS, 80 * MS, 0, 100, List.of(), Simulator.WorkModel.UNITS);
    Simulator sim = new Simulator(profile, new ScriptedPolicy(0), config);
    sim.decisionListener(recorder(log, 0));
    sim.run(
        new long[] {0, MS / 2, 6 * MS / 10},
        new int[] {0, 1, 2},
        new Simulator.Labels(1, "test", 1, "test"));
    return log;
  }

  private static List<String> runtime() throws Exception {
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch unitsStarted = new CountDownLatch(2);
    CountDownLatch unitsMayEnd = new CountDownLatch(1);
    try (Scheduler scheduler =
        SchedulerInternals.decisionListener(
                Scheduler.builder()
                    .policy(new ScriptedPolicy(1))
                    .workers(2)
                    .tuning(Tuning.defaults().withQuantum(Duration.ofMillis(1))),
                recorder(log, 1))
            .build()) {
      CompletableFuture<?> first =
          SchedulerInternals.submit(
              scheduler,
              ctx -> {
                for (int unit = 0; unit < 2; unit++) {
                  ctx.fork(
                      () -> {
                        unitsStarted.countDown();
                        awaitQuietly(unitsMayEnd);
                      });
                }
                ctx.joinUnits();
                return null;
              });
      // Both units running, one on the helper: both threads are taken and no unit is left.
      assertTrue(unitsStarted.await(30, TimeUnit.SECONDS), "decisions so far: " + log);
      CompletableFuture<?> second = SchedulerInternals.submit(scheduler, ctx -> null);
      CompletableFuture<?> third = SchedulerInternals.submit(scheduler, ctx -> null);
      unitsMayEnd.countDown();
      CompletableFuture.allOf(first, second, third).get(30, TimeUnit.SECONDS);
    }
    return List.copyOf(log);
  }

  /** A profile request of the unit model with these unit times, in milliseconds, nothing serial. */
  private static DemandProfile.Request request(String id, long... unitsMs) {
    long[] units = new long[unitsMs.length];
    long total = 0;
    for (int i = 0; i < units.length; i++) {
      units[i] = unitsMs[i] * MS;
      total += units[i];
    }
    return new DemandProfile.Request(
        id,
        null,
        "q" + id,
        total,
        units,
        new double[] {1.0},
        new double[0],
        new DemandProfile.Features("test", 1, new long[0], 0));
  }

  /**
   * Records decisions as text, request ids counted from the first. A delay's deadline is left out:
   * it is a time on each system's own clock.
   */
  private static Dispatcher.DecisionListener recorder(List<String> log, long firstId) {
    return (decision, id, value) ->
        log.add(
            decision
                + " "
                + (id - firstId)
                + (decision == Dispatcher.Decision.DELAY
                        || decision == Dispatcher.Decision.AWAIT_EXIT
                    ? ""
                    : " " + value));
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Admits request 0 with degree 2; holds request 1 for an exit the first time it is asked; delays
   * request 2 by 2 ms the first time; starts everything else with one thread. Never changes a
   * degree.
   */
  private static final class ScriptedPolicy implements Policy {
    private final long firstId;
    private final Map<Long, Integer> asks = new ConcurrentHashMap<>();

    ScriptedPolicy(long firstId) {
      this.firstId = firstId;
    }

    @Override
    public Admission admit(RequestView request, SystemView system) {
      long n = request.id() - firstId;
      boolean firstAsk = asks.merge(n, 1, Integer::sum) == 1;
      if (n == 0) {
        return Admission.start(2);
      }
      if (n == 1 && firstAsk) {
        return Admission.awaitExit();
      }
      if (n == 2 && firstAsk) {
        return Admission.delayUntil(system.nanoTime() + 2 * MS);
      }
      return Admission.start(1);
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return request.degree();
    }

    @Override
    public String spec() {
      return "scripted";
    }
  }
}
