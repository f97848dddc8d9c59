package dev.tailor.bench;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.policy.Policies;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The added cost of going parallel. One request forks {@code units} trivial units; {@code inline}
 * runs them all on the request's own thread (degree 1); {@code released} hands them all to a helper
 * (degree 2) while the own thread waits on a latch, as a Lucene query's thread waits on its slices'
 * futures; {@code joined} forks them and calls {@code joinUnits} (degree 2), so that the own thread
 * and a helper share them and the own thread waits for the helper's last unit in the scheduler. All
 * are whole requests (ns per request); the difference from {@code inline} holds a fixed part
 * (waking the helper, then the own thread) and a part per unit. Two unit counts in one run separate
 * them: the slope of the difference is the added cost per released unit. {@code spinMicros} is how
 * long idle threads spin before they park: {@code 0} parks at once, {@code default} is {@code
 * Scheduler.Builder}'s default, a number is microseconds. {@code ./tailor bench scheduler-overhead}
 * prints the figures.
 */
public class HelperUnitBenchmark extends NanosecondBenchmark {

  @Param({"32", "512"})
  public int units;

  /** How long idle threads spin before they park: 0, the builder's default, or microseconds. */
  @Param({"0", "default"})
  public String spinMicros;

  private final int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
  private Scheduler sequential;
  private Scheduler parallel;

  @Setup
  public void setUp() {
    sequential = spin(Scheduler.builder().policy(Policies.seq()).workers(workers)).build();
    parallel = spin(Scheduler.builder().policy(Policies.fixed(2)).workers(workers)).build();
  }

  private Scheduler.Builder spin(Scheduler.Builder b) {
    return spinMicros.equals("default")
        ? b
        : b.tuning(
            Tuning.defaults()
                .withSpinBeforePark(Duration.ofNanos(Long.parseLong(spinMicros) * 1_000)));
  }

  @TearDown
  public void tearDown() {
    sequential.close();
    parallel.close();
  }

  @Benchmark
  public Integer inline() throws ExecutionException, InterruptedException {
    return forkUnits(sequential, true); // degree 1: the own thread runs every unit
  }

  @Benchmark
  public Integer released() throws ExecutionException, InterruptedException {
    return forkUnits(parallel, false); // the own thread runs none: every unit goes to the helper
  }

  @Benchmark
  public Integer joined() throws ExecutionException, InterruptedException {
    return forkUnits(parallel, true); // degree 2: the own thread and a helper share the units
  }

  /**
   * One request on {@code scheduler} that forks {@link #units} trivial units, joins them if {@code
   * join} says so, and waits on a latch until every one has run.
   */
  private Integer forkUnits(Scheduler scheduler, boolean join)
      throws ExecutionException, InterruptedException {
    int n = units;
    return SchedulerInternals.submit(
            scheduler,
            ctx -> {
              CountDownLatch done = new CountDownLatch(n);
              for (int i = 0; i < n; i++) {
                ctx.fork(done::countDown);
              }
              if (join) {
                ctx.joinUnits();
              }
              done.await();
              return n;
            })
        .get();
  }
}
