package dev.tailor.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.server.ServerFixture.Response;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Drives a tiny server over real HTTP with more clients than it admits: one worker, a scheduler
 * queue of one, two searches in flight on four request threads. Searches are held at the index by a
 * gate, so what is admitted and what is refused follows from the counts alone, with no timing.
 */
class OverloadTest {

  private static final int IN_FLIGHT = 2;

  @Test
  void refusesBeyondItsBoundWithAFast503AndRecovers() throws Exception {
    try (ServerFixture f =
        new ServerFixture(
            SchedulerInternals.policy(Scheduler.builder(), "seq")
                .workers(1)
                .tuning(Tuning.defaults().withQueueCapacity(1)),
            ServerFixture.admitting(4, IN_FLIGHT, 64))) {
      // 1. Every admitted search held: exactly IN_FLIGHT are admitted, every other is refused.
      f.gate.shut();
      int burst = 16;
      CountDownLatch answered = new CountDownLatch(burst - IN_FLIGHT);
      List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
      for (int i = 0; i < burst; i++) {
        held.add(
            f.client
                .sendAsync(f.request("/search?q=w" + i % 10).build(), ofString())
                .whenComplete((r, e) -> answered.countDown()));
      }
      assertTrue(answered.await(1, TimeUnit.MINUTES), "the refusals never came");
      assertTrue(f.gate.awaitHeld(1), "no search reached the index");
      int refused = 0;
      for (CompletableFuture<HttpResponse<String>> r : held) {
        if (r.isDone()) {
          assertRefused(ServerFixture.response(r.get()));
          refused++;
        }
      }
      assertEquals(burst - IN_FLIGHT, refused, "the admitted searches cannot answer yet");
      JsonNode http = f.stats().get("http");
      assertEquals(IN_FLIGHT, http.get("inFlight").asInt());
      assertEquals(IN_FLIGHT, http.get("peakInFlight").asInt());
      assertEquals(burst - IN_FLIGHT, http.get("refused").asInt());

      // 2. Released: the held ones answer.
      f.gate.open();
      int ok = 0;
      for (CompletableFuture<HttpResponse<String>> r : held) {
        HttpResponse<String> response = r.get(1, TimeUnit.MINUTES);
        if (response.statusCode() == 200) {
          ok++;
        }
      }
      assertEquals(IN_FLIGHT, ok);

      // 3. Steady overload: 8 clients, each sending 25 searches back to back.
      int clients = 8;
      int each = 25;
      AtomicInteger ok2 = new AtomicInteger();
      AtomicInteger refused2 = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
          int client = c;
          done.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < each; i++) {
                      Response r = f.get("/search?q=w" + (client + i) % 10 + "&k=3");
                      if (r.status() == 200) {
                        ok2.incrementAndGet();
                      } else {
                        assertRefused(r);
                        refused2.incrementAndGet();
                      }
                    }
                    return null;
                  }));
        }
        for (Future<?> d : done) {
          d.get(1, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(clients * each, ok2.get() + refused2.get(), "every search answered once");

      // 4. Load gone: nothing is left counted in flight, and searches are served again. A search
      // leaves after its answer is written, so each next one waits until nothing is in: what is
      // admitted follows from the counts, not from how fast the last one's thread gets to leave.
      for (int i = 0; i < 5; i++) {
        f.statsWhenIdle();
        assertEquals(200, f.get("/search?q=w" + i).status());
      }
      http = f.statsWhenIdle().get("http");
      assertTrue(http.get("peakInFlight").asInt() <= IN_FLIGHT, http.toString());
      assertEquals(refused + refused2.get(), http.get("refused").asInt());
      // Seen from the scheduler: never more than the bound inside it, running or queued.
      assertTrue(f.gate.maxLoad() <= IN_FLIGHT, "scheduler held " + f.gate.maxLoad());
      // Every search answered 200 ran exactly once; no refused one reached the scheduler.
      int served = ok + ok2.get() + 5;
      assertEquals(
          served, SchedulerInternals.metrics(f.scheduler).count(RequestRecord.Outcome.COMPLETED));
      assertEquals(served, SchedulerInternals.metrics(f.scheduler).latency().getTotalCount());

      System.out.printf(
          "overload over HTTP (%d in flight): offered %d, 200s %d, 503s %d%n",
          IN_FLIGHT, burst + clients * each + 5, served, refused + refused2.get());
    }
  }

  private static void assertRefused(Response r) throws Exception {
    assertEquals(503, r.status(), r.text());
    assertEquals("1", r.retryAfter());
    assertTrue(r.error().startsWith("overloaded: 2 searches in flight"), r.text());
    assertFalse(r.text().contains("Exception"), r.text());
  }

  private static HttpResponse.BodyHandler<String> ofString() {
    return HttpResponse.BodyHandlers.ofString();
  }
}
