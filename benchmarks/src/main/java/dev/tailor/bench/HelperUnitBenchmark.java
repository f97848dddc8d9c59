package dev.tailor.bench;

import dev.tailor.core.Scheduler;
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
 * The added cost of a released helper unit. One request forks {@code units} trivial units; {@code
 * inline} runs them all on the request's own thread (degree 1), {@code released} hands them all to
 * a helper (degree 2, the own thread waits). Both are whole requests (ns per request); the
 * difference holds a fixed part (waking the helper, parking the own thread) and a part per unit.
 * Two unit counts in one run separate them: the slope of the difference is the added cost per
 * released unit. {@code ./tailor bench scheduler-overhead} prints it.
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

  private final int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
  private Scheduler sequential;
  private Scheduler parallel;

  @Setup
  public void setUp() {
    sequential = Scheduler.builder().policy("seq").workers(workers).build();
    parallel = Scheduler.builder().policy("fixed:2").workers(workers).build();
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
}
