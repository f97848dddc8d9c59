package dev.tailor.bench;

import dev.tailor.core.Scheduler;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

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
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Benchmark)
public class HelperUnitBenchmark {

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
    sequential = spin(Scheduler.builder().policy("seq").workers(workers)).build();
    parallel = spin(Scheduler.builder().policy("fixed:2").workers(workers)).build();
  }

  private Scheduler.Builder spin(Scheduler.Builder b) {
    return spinMicros.equals("default")
        ? b
        : b.spinBeforePark(Duration.ofNanos(Long.parseLong(spinMicros) * 1_000));
  }

  @TearDown
  public void tearDown() {
    sequential.close();
    parallel.close();
  }

  @Benchmark
  public Integer inline() throws ExecutionException, InterruptedException {
    int n = units;
    return sequential
        .submit(
            ctx -> {
              CountDownLatch done = new CountDownLatch(n);
              for (int i = 0; i < n; i++) {
                ctx.fork(done::countDown);
              }
              ctx.joinUnits(); // degree 1: the own thread runs every unit
              done.await();
              return n;
            })
        .get();
  }

  @Benchmark
  public Integer released() throws ExecutionException, InterruptedException {
    int n = units;
    return parallel
        .submit(
            ctx -> {
              CountDownLatch done = new CountDownLatch(n);
              for (int i = 0; i < n; i++) {
                ctx.fork(done::countDown);
              }
              done.await(); // the own thread runs none: every unit goes to the helper
              return n;
            })
        .get();
  }

  @Benchmark
  public Integer joined() throws ExecutionException, InterruptedException {
    int n = units;
    return parallel
        .submit(
            ctx -> {
              CountDownLatch done = new CountDownLatch(n);
              for (int i = 0; i < n; i++) {
                ctx.fork(done::countDown);
              }
              ctx.joinUnits(); // degree 2: the own thread and a helper share the units
              done.await();
              return n;
            })
        .get();
  }
}
