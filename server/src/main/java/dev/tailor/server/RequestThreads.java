package dev.tailor.server;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The threads the HTTP server runs exchanges on: a fixed number, behind a bounded queue of
 * connections waiting for one, so that no connection waits unbounded. A connection arriving with
 * the queue full is refused: {@link ThreadPoolExecutor}'s abort policy throws, and the JDK's server
 * closes a connection its executor refuses, without a response. Every exchange runs under a
 * {@linkplain ClientDeadlines client deadline}, armed as the thread takes it.
 */
final class RequestThreads implements Executor {

  private final ThreadPoolExecutor pool;
  private final ClientDeadlines deadlines;
  private final LongAdder dropped = new LongAdder();

  RequestThreads(int threads, int queue, ClientDeadlines deadlines) {
    this.deadlines = deadlines;
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(queue),
            Thread.ofPlatform().name("tailor-http-", 0).daemon().factory(),
            (task, executor) -> {
              if (!executor.isShutdown()) {
                dropped.increment();
              }
              throw new RejectedExecutionException("every request thread busy, queue full");
            });
  }

  @Override
  public void execute(Runnable exchange) {
    pool.execute(
        () -> {
          deadlines.arm();
          try {
            exchange.run();
          } finally {
            deadlines.disarm();
          }
        });
  }

  /** Connections closed unanswered because every thread was busy and the queue full. */
  long dropped() {
    return dropped.sum();
  }

  /** Connections waiting for a thread now. */
  int queued() {
    return pool.getQueue().size();
  }

  /** Takes no more exchanges; the running ones finish. */
  void shutdown() {
    pool.shutdown();
  }

  /** Waits for the running exchanges to finish, as {@code ExecutorService} does. */
  boolean awaitTermination(long nanos) throws InterruptedException {
    return pool.awaitTermination(nanos, TimeUnit.NANOSECONDS);
  }
}
