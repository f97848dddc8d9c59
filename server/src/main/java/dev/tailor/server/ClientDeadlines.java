package dev.tailor.server;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Bounds how long a client may hold a request thread while it sends its request (headers and body)
 * or takes its response, so that a client sending byte by byte, or not reading, cannot keep a
 * thread forever.
 *
 * <p>The JDK's HTTP server reads and writes a connection through a {@code SocketChannel} in
 * blocking mode, with no per-connection timeout: its only bounds are JVM-wide properties ({@code
 * sun.net.httpserver.maxReqTime}, {@code maxRspTime}), read once when its classes load. So a thread
 * that takes an exchange {@link #arm() arms} a deadline, and when the deadline passes before it is
 * {@link #disarm() disarmed} the thread is interrupted: a {@code SocketChannel} is an {@code
 * InterruptibleChannel}, so a blocked read or write ends with {@code ClosedByInterruptException}
 * and the connection is closed. Interrupts reach a thread only while it is armed, and disarming
 * waits for one under way and clears it, so none leaks into the next exchange or into a search.
 *
 * <p>That is how JDK 21 and JDK 25 both work, checked in the JDK's {@code
 * src/jdk.httpserver/share/classes/sun/net/httpserver/ServerImpl.java} (a connection is made
 * blocking when an exchange takes it, and read and written through its channel) and {@code
 * ServerConfig.java} (the properties, read in a static initializer), and in the classes of Temurin
 * 21.0.8 and 25.0.3 (with {@code javap}); {@code ./tailor test} runs the server's tests on both.
 */
final class ClientDeadlines implements AutoCloseable {

  private static final int ARMED = 0;
  private static final int DISARMED = 1;
  private static final int EXPIRING = 2;
  private static final int EXPIRED = 3;

  private final long limitNanos;
  private final ScheduledThreadPoolExecutor timer;
  private final ThreadLocal<Watch> current = new ThreadLocal<>();
  private final LongAdder expired = new LongAdder();

  ClientDeadlines(Duration limit) {
    this.limitNanos = limit.toNanos();
    this.timer =
        new ScheduledThreadPoolExecutor(
            1, Thread.ofPlatform().name("tailor-http-deadlines").daemon().factory());
    timer.setRemoveOnCancelPolicy(true); // a disarmed deadline leaves nothing behind
  }

  /** One armed deadline of one thread. */
  private final class Watch {
    final Thread thread = Thread.currentThread();
    final AtomicInteger state = new AtomicInteger(ARMED);
    ScheduledFuture<?> task;

    void expire() {
      if (state.compareAndSet(ARMED, EXPIRING)) {
        expired.increment();
        thread.interrupt();
        state.set(EXPIRED);
      }
    }
  }

  /**
   * Arms a deadline for the calling thread, the limit from now, replacing any it had. Once the
   * server is closing, arms nothing: the server closes every connection itself.
   */
  void arm() {
    disarm();
    Watch w = new Watch();
    try {
      w.task = timer.schedule(w::expire, limitNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closing) {
      return;
    }
    current.set(w);
  }

  /**
   * Disarms the calling thread's deadline, if it has one.
   *
   * @return whether it had passed; the interrupt it caused is cleared
   */
  boolean disarm() {
    Watch w = current.get();
    if (w == null) {
      return false;
    }
    current.remove();
    if (w.state.compareAndSet(ARMED, DISARMED)) {
      w.task.cancel(false);
      return false;
    }
    while (w.state.get() == EXPIRING) {
      Thread.onSpinWait(); // the timer is between its two steps: interrupt, then EXPIRED
    }
    Thread.interrupted();
    return true;
  }

  /** Deadlines that passed. */
  long expired() {
    return expired.sum();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
