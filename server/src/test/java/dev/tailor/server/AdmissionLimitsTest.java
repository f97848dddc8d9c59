package dev.tailor.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The server's bounds on their own, hammered from many threads. */
class AdmissionLimitsTest {

  @Test
  void inFlightNeverPassesItsLimitAndEveryEntryExitsOnce() throws Exception {
    int limit = 3;
    int threads = 8;
    int attempts = 20_000;
    InFlight inFlight = new InFlight(limit);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    AtomicLong entered = new AtomicLong();
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      workers.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                    for (int i = 0; i < attempts; i++) {
                      if (inFlight.tryEnter()) {
                        entered.incrementAndGet();
                        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        inside.decrementAndGet();
                        inFlight.exit();
                      }
                    }
                  }));
    }
    for (Thread w : workers) {
      w.join(TimeUnit.MINUTES.toMillis(1));
      assertFalse(w.isAlive());
    }
    assertTrue(mostInside.get() <= limit, mostInside.get() + " inside");
    assertTrue(inFlight.peak() <= limit);
    assertEquals(0, inFlight.current());
    assertEquals((long) threads * attempts, entered.get() + inFlight.refused());
    // Every permit came back: the limit is whole again.
    for (int i = 0; i < limit; i++) {
      assertTrue(inFlight.tryEnter());
    }
    assertFalse(inFlight.tryEnter());
  }

  @Test
  void labelsPastTheLimitFoldIntoOtherFromManyThreads() throws Exception {
    LabelClasses classes = new LabelClasses(32, List.of("HighTerm"));
    int threads = 8;
    List<Thread> workers = new ArrayList<>();
    java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    for (int t = 0; t < threads; t++) {
      int offset = t;
      workers.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = offset; i < 10_000; i += threads) {
                      String label = "label-" + i;
                      String cls = classes.classOf(label);
                      assertTrue(cls.equals(label) || cls.equals(LabelClasses.OTHER), cls);
                      seen.add(cls);
                      // A label once given a class keeps it.
                      assertEquals(cls, classes.classOf(label));
                    }
                  }));
    }
    for (Thread w : workers) {
      w.join(TimeUnit.MINUTES.toMillis(1));
    }
    assertEquals(32, classes.distinct());
    assertEquals(32, seen.size(), "31 first-come labels and other"); // HighTerm was never sent
    assertEquals("HighTerm", classes.classOf("HighTerm"));
    assertEquals(null, classes.classOf(null));
  }

  @Test
  void aConnectionArrivingWithEveryThreadBusyAndTheQueueFullIsRefused() throws Exception {
    try (ClientDeadlines deadlines = new ClientDeadlines(Duration.ofMinutes(1))) {
      RequestThreads threads = new RequestThreads(1, 1, deadlines);
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch running = new CountDownLatch(1);
      CountDownLatch ran = new CountDownLatch(2);
      threads.execute(
          () -> {
            running.countDown();
            await(release);
            ran.countDown();
          });
      assertTrue(running.await(1, TimeUnit.MINUTES));
      threads.execute(ran::countDown); // waits in the queue
      assertEquals(1, threads.queued());
      // The JDK's server closes the connection of an exchange its executor refuses.
      assertThrows(RejectedExecutionException.class, () -> threads.execute(() -> {}));
      assertEquals(1, threads.dropped());
      release.countDown();
      assertTrue(ran.await(1, TimeUnit.MINUTES), "the queued one ran");
      threads.shutdown();
      assertTrue(threads.awaitTermination(TimeUnit.MINUTES.toNanos(1)));
      assertThrows(RejectedExecutionException.class, () -> threads.execute(() -> {}));
      assertEquals(1, threads.dropped(), "refusals after shutdown are not overload");
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(1, TimeUnit.MINUTES));
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
