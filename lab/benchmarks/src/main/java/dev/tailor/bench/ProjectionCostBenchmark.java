package dev.tailor.bench;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.RequestContext;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.policy.Policies;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the projection adds to a request's path, per claim of windows: {@code claim} reports one
 * finished window to a running request, as the drop-in's windowed search does once per claim;
 * {@code claimAndRead} also reads the request's projected sequential time, as a policy that
 * consults it does; {@code noReport} is the same invocation without either, the baseline both are
 * set against. {@code ./tailor bench scheduler-overhead} prints the differences.
 *
 * <p>Each iteration runs inside one request, opened before it and finished after it: the request's
 * body parks until the iteration ends, while the benchmark's thread reports through its context, so
 * that the request's monitor is uncontended, as it is at degree 1. The request is planned more
 * windows than an iteration can finish and carries a prior, so that every read takes the
 * projection's whole rule, blending the windows' pace with the prior.
 */
public class ProjectionCostBenchmark extends NanosecondBenchmark {

  /** The time each claim reports: a window of a millisecond query cut into 16. */
  private static final long CLAIM_NANOS = 62_500;

  private static final long PRIOR_NANOS = 1_000_000;

  private final long claimNanos = CLAIM_NANOS;
  private Scheduler scheduler;
  private RequestContext ctx;
  private CountDownLatch iterationDone;
  private CompletableFuture<Void> request;

  @Setup
  public void setUp() {
    scheduler = Scheduler.builder().policy(Policies.seq()).workers(2).build();
  }

  @TearDown
  public void tearDown() {
    scheduler.close();
  }

  /** Opens the request the iteration reports to, and waits until its body runs. */
  @Setup(Level.Iteration)
  public void openRequest() throws ExecutionException, InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    CompletableFuture<RequestContext> running = new CompletableFuture<>();
    iterationDone = done;
    request =
        SchedulerInternals.submit(
            scheduler,
            c -> {
              c.windowsPlanned(Integer.MAX_VALUE);
              running.complete(c);
              done.await();
              return null;
            },
            RequestAttributes.predicted(PRIOR_NANOS));
    ctx = running.get();
  }

  @TearDown(Level.Iteration)
  public void finishRequest() throws ExecutionException, InterruptedException {
    iterationDone.countDown();
    request.get();
  }

  @Benchmark
  public long noReport() {
    return claimNanos;
  }

  @Benchmark
  public void claim() {
    ctx.windowsFinished(1, claimNanos);
  }

  @Benchmark
  public long claimAndRead() {
    ctx.windowsFinished(1, claimNanos);
    return ctx.view().projectedSequentialNanos();
  }
}
