package dev.tailor.bench;

import dev.tailor.core.RequestBody;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.policy.Policies;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the scheduler costs over a plain {@link ThreadPoolExecutor}, measured in one run:
 *
 * <ul>
 *   <li>{@code tpeRoundTrip} / {@code schedulerRoundTrip}: one trivial request submitted and
 *       awaited, the Scheduler at degree 1 ({@code seq}) against the same task on a
 *       ThreadPoolExecutor with as many threads;
 *   <li>{@code tpeBatch} / {@code schedulerBatch}: {@value #BATCH} such requests submitted, then
 *       all awaited (reported per request), which keeps the workers busy and shows the per-request
 *       bookkeeping rather than thread wake-ups.
 * </ul>
 *
 * <p>The Scheduler runs with its default {@link dev.tailor.core.Tuning#withSpinBeforePark spin}: a
 * worker that has just finished a request takes the next one without being woken. {@link
 * HelperUnitBenchmark} measures requests that go parallel. Run both with {@code ./tailor bench
 * scheduler-overhead}, which prints the ratios.
 */
public class SchedulerOverheadBenchmark extends NanosecondBenchmark {

  static final int BATCH = 64;

  private static final Callable<Integer> TASK = () -> 42;
  private static final RequestBody<Integer> BODY = ctx -> 42;

  private final int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
  private ThreadPoolExecutor pool;
  private Scheduler sequential;
  private final Future<?>[] futures = new Future<?>[BATCH];

  @Setup
  public void setUp() {
    pool =
        new ThreadPoolExecutor(workers, workers, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
    pool.prestartAllCoreThreads();
    sequential = Scheduler.builder().policy(Policies.seq()).workers(workers).build();
  }

  @TearDown
  public void tearDown() throws InterruptedException {
    pool.shutdown();
    sequential.close();
    pool.awaitTermination(1, TimeUnit.MINUTES);
  }

  @Benchmark
  public Integer tpeRoundTrip() throws ExecutionException, InterruptedException {
    return pool.submit(TASK).get();
  }

  @Benchmark
  public Integer schedulerRoundTrip() throws ExecutionException, InterruptedException {
    return SchedulerInternals.submit(sequential, BODY).get();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void tpeBatch() throws ExecutionException, InterruptedException {
    for (int i = 0; i < BATCH; i++) {
      futures[i] = pool.submit(TASK);
    }
    awaitBatch();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void schedulerBatch() throws ExecutionException, InterruptedException {
    for (int i = 0; i < BATCH; i++) {
      futures[i] = SchedulerInternals.submit(sequential, BODY);
    }
    awaitBatch();
  }

  private void awaitBatch() throws ExecutionException, InterruptedException {
    for (Future<?> f : futures) {
      f.get();
    }
  }
}
