package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.Admission;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PriorityClass;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.policy.SystemView;
import dev.tailor.core.policy.WorkerPreference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * 200,000 requests of random sizes on 8 workers under randomly chosen policies (one that changes
 * degrees and admission decisions at random among them), with random failures in bodies and units,
 * random cancellations, callers running requests on their own threads, and one request in three in
 * the background class. Every request must complete exactly once and no worker may die. The
 * timeouts are hang guards only.
 */
class SchedulerStressTest {

  private static final int ROUNDS = 10;
  private static final int REQUESTS_PER_ROUND = 20_000;
  private static final int CALLERS = 2;
  private static final int CALLER_SHARE = 10; // one request in ten runs on a caller's thread
  private static final long HANG_GUARD_MINUTES = 10;

  private static final String[] POLICIES = {
    "seq", "fixed:3", "fixed:8", "adaptive", "wq-linear:6", "rampup:1ms,8", "rc:2us,4", "chaos"
  };

  @Test
  void everyRequestCompletesExactlyOnceAndNoWorkerDies() throws Exception {
    Random seeds = new Random(20261122L);
    long total = 0;
    for (int round = 0; round < ROUNDS; round++) {
      String spec = POLICIES[round < POLICIES.length ? round : seeds.nextInt(POLICIES.length)];
      total += runRound(spec, seeds.nextLong());
    }
    assertEquals((long) ROUNDS * REQUESTS_PER_ROUND, total);
  }

  private long runRound(String spec, long seed) throws Exception {
    Policy policy = spec.equals("chaos") ? new ChaosPolicy() : PolicyRegistry.of(spec);
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    ThreadFactory factory =
        r -> {
          Thread t = new Thread(r);
          t.setDaemon(true);
          t.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
          return t;
        };
    Map<Long, AtomicInteger> reported = new ConcurrentHashMap<>();
    Scheduler scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(8)
            // Strict priority in some rounds, a floor of two threads in the others.
            .classShare(PriorityClass.BACKGROUND, (seed & 1) == 0 ? 0 : 0.25)
            .queueCapacity(REQUESTS_PER_ROUND + 1)
            .quantum(Duration.ofMillis(1))
            .threadFactory(factory)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestCompleted(RequestRecord record) {
                    reported
                        .computeIfAbsent(record.id(), k -> new AtomicInteger())
                        .incrementAndGet();
                  }
                })
            .build();

    Plan[] plans = new Plan[REQUESTS_PER_ROUND];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < plans.length; i++) {
      plans[i] = new Plan(i, random.split());
    }

    // Callers run their share on their own threads while the main thread submits the rest.
    AtomicLong callerCompletions = new AtomicLong();
    List<Thread> callers = new ArrayList<>();
    for (int c = 0; c < CALLERS; c++) {
      int first = c;
      Thread caller =
          new Thread(
              () -> {
                for (int i = first * CALLER_SHARE; i < plans.length; i += CALLER_SHARE * CALLERS) {
                  Plan p = plans[i];
                  try {
                    Integer result = scheduler.run(p::body);
                    p.recordOutcome(result, null);
                  } catch (Exception e) {
                    p.recordOutcome(null, e);
                  }
                  callerCompletions.incrementAndGet();
                }
              });
      caller.setUncaughtExceptionHandler((th, e) -> uncaught.add(e));
      callers.add(caller);
      caller.start();
    }
    List<CompletableFuture<Integer>> futures = new ArrayList<>();
    // Completed after each outcome is recorded: what the check waits for.
    List<CompletableFuture<Integer>> recorded = new ArrayList<>();
    List<Plan> submitted = new ArrayList<>();
    for (Plan p : plans) {
      if (p.onCaller()) {
        continue;
      }
      CompletableFuture<Integer> f = scheduler.submit(p::body, p.attributes());
      recorded.add(f.whenComplete(p::recordOutcome));
      futures.add(f);
      submitted.add(p);
      if (p.cancelAtOnce) {
        p.cancelRequested = true;
        f.cancel(p.interrupt);
      }
      if (p.cancelLater && futures.size() > 50) {
        // Cancel one submitted a while ago: it may be queued, running, or done.
        submitted.get(futures.size() - 50).cancelRequested = true;
        futures.get(futures.size() - 50).cancel(p.interrupt);
      }
    }
    CompletableFuture<Void> all =
        CompletableFuture.allOf(recorded.toArray(CompletableFuture[]::new))
            .exceptionally(e -> null);
    all.get(HANG_GUARD_MINUTES, TimeUnit.MINUTES);
    for (Thread caller : callers) {
      caller.join(TimeUnit.MINUTES.toMillis(HANG_GUARD_MINUTES));
    }
    scheduler.shutdown();
    assertTrue(
        scheduler.awaitTermination(HANG_GUARD_MINUTES, TimeUnit.MINUTES), spec + ": terminated");

    assertEquals(List.of(), uncaught, spec + ": no thread died");
    for (Plan p : plans) {
      p.check(spec);
    }
    assertEquals(plans.length, reported.size(), spec + ": every request reported");
    for (AtomicInteger count : reported.values()) {
      assertEquals(1, count.get(), spec + ": reported exactly once");
    }
    RunMetricsCounts counts = RunMetricsCounts.of(scheduler);
    assertEquals(plans.length, counts.total(), spec + ": metrics count every request once");
    return plans.length;
  }

  /** What one request will do, decided up front from its own random stream. */
  private static final class Plan {
    final int index;
    final int units;
    final int[] unitWork;
    final boolean[] unitThrows;
    final boolean bodyThrows;
    final boolean joins;
    final boolean cancelAtOnce;
    final boolean cancelLater;
    final boolean interrupt;
    volatile boolean cancelRequested;
    final AtomicInteger bodyRuns = new AtomicInteger();
    final AtomicInteger outcomes = new AtomicInteger();
    final AtomicInteger unitRuns = new AtomicInteger();
    volatile Integer result;
    volatile Throwable failure;

    Plan(int index, SplittableRandom r) {
      this.index = index;
      this.units = r.nextInt(7);
      this.unitWork = new int[units];
      this.unitThrows = new boolean[units];
      for (int u = 0; u < units; u++) {
        // Mostly short units, a few ten times longer: the skew the scheduler exists for.
        unitWork[u] = r.nextInt(100) < 95 ? r.nextInt(200) : r.nextInt(2_000);
        unitThrows[u] = r.nextInt(200) == 0;
      }
      this.bodyThrows = r.nextInt(100) == 0;
      this.joins = r.nextInt(2) == 0;
      this.cancelAtOnce = r.nextInt(100) < 2;
      this.cancelLater = r.nextInt(100) < 3;
      this.interrupt = r.nextBoolean();
    }

    /** Half the requests carry their total unit work as a prediction, for {@code rc}. */
    RequestAttributes attributes() {
      long work = 0;
      for (int w : unitWork) {
        work += w;
      }
      RequestAttributes a =
          index % 2 == 0 ? RequestAttributes.predicted(work * 10) : RequestAttributes.NONE;
      // One request in three is background: mixed classes, promptness and the floor at work.
      return index % 3 == 1 ? a.withPriority(PriorityClass.BACKGROUND) : a;
    }

    boolean onCaller() {
      return index % CALLER_SHARE == 0;
    }

    Integer body(RequestContext ctx) {
      bodyRuns.incrementAndGet();
      for (int u = 0; u < units; u++) {
        int work = unitWork[u];
        boolean fail = unitThrows[u];
        ctx.fork(
            () -> {
              unitRuns.incrementAndGet();
              spin(work);
              if (fail) {
                throw new IllegalStateException("unit failure");
              }
            });
      }
      spin(50);
      if (bodyThrows) {
        throw new ArithmeticException("body failure");
      }
      if (joins) {
        ctx.joinUnits();
      }
      return index;
    }

    void recordOutcome(Integer value, Throwable error) {
      outcomes.incrementAndGet();
      result = value;
      failure = error;
    }

    void check(String spec) {
      String where = spec + ": request " + index;
      assertEquals(1, outcomes.get(), where + " completed exactly once");
      assertTrue(bodyRuns.get() <= 1, where + " body ran at most once");
      assertTrue(unitRuns.get() <= units, where + " no unit ran twice");
      Throwable f = failure instanceof CompletionException ce ? ce.getCause() : failure;
      if (f == null) {
        assertEquals(index, result, where + " result");
        assertEquals(1, bodyRuns.get(), where + " ran");
        if (joins) {
          assertEquals(units, unitRuns.get(), where + " joined every unit");
        }
      } else if (!(f instanceof CancellationException)) {
        assertEquals(1, bodyRuns.get(), where + " ran before it failed");
        boolean expected =
            (bodyThrows && f instanceof ArithmeticException)
                || (f instanceof IllegalStateException && anyUnitThrows());
        assertTrue(expected, where + " failed with its own failure, not " + f);
      } else {
        assertTrue(cancelRequested, where + " cancelled only when asked");
      }
    }

    private boolean anyUnitThrows() {
      for (boolean t : unitThrows) {
        if (t) {
          return true;
        }
      }
      return false;
    }
  }

  private static volatile long sink;

  private static void spin(int iterations) {
    long x = iterations;
    for (int i = 0; i < iterations; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    sink = x;
  }

  private record RunMetricsCounts(long total) {
    static RunMetricsCounts of(Scheduler s) {
      long total = 0;
      for (RequestRecord.Outcome o : RequestRecord.Outcome.values()) {
        total += s.metrics().count(o);
      }
      return new RunMetricsCounts(total);
    }
  }

  /** Random answers to every question: degrees, admissions, and the free worker's preference. */
  private static final class ChaosPolicy implements Policy {
    @Override
    public Admission admit(RequestView request, SystemView system) {
      ThreadLocalRandom r = ThreadLocalRandom.current();
      int roll = r.nextInt(100);
      if (roll < 1) {
        return Admission.delayUntil(system.nanoTime() + r.nextLong(200_000));
      }
      if (roll < 6) {
        return Admission.awaitExit();
      }
      return Admission.start(r.nextInt(9));
    }

    @Override
    public int degree(RequestView request, SystemView system) {
      return ThreadLocalRandom.current().nextInt(9);
    }

    @Override
    public WorkerPreference workerPreference(SystemView system) {
      return ThreadLocalRandom.current().nextBoolean()
          ? WorkerPreference.HELP_FIRST
          : WorkerPreference.ADMIT_FIRST;
    }

    @Override
    public String spec() {
      return "chaos";
    }
  }
}
