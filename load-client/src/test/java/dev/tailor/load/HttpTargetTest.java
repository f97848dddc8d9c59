package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.measure.Failures;
import dev.tailor.measure.PointResult;
import dev.tailor.server.SearchServer;
import dev.tailor.server.ServerTimings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class HttpTargetTest {

  @Test
  void anUnreachableServerFailsWithinSeconds() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // free once closed: nothing listens there
    }
    URI nowhere = URI.create("http://127.0.0.1:" + port);
    long start = System.nanoTime();
    IOException e = assertThrows(IOException.class, () -> new HttpTarget(nowhere, List.of("q")));
    assertTrue(e.getMessage().contains("cannot reach the search server"), e.getMessage());
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "hang guard");
  }

  @Test
  void sendsQueriesToTheSearchServer() throws Exception {
    StandardAnalyzer analyzer = new StandardAnalyzer();
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        Document doc = new Document();
        doc.add(new TextField("body", "open loop replay", Field.Store.NO));
        w.addDocument(doc);
      }
      try (DirectoryReader reader = DirectoryReader.open(dir);
          Scheduler scheduler =
              SchedulerInternals.policy(Scheduler.builder(), "fixed:2").workers(2).build();
          SearchServer server =
              new SearchServer(
                  new TailorSearcher(reader, scheduler),
                  analyzer,
                  "body",
                  SearchServer.Options.defaults());
          HttpTarget target =
              new HttpTarget(
                  URI.create("http://127.0.0.1:" + server.address().getPort()),
                  List.of("replay", "loop"))) {
        assertEquals("fixed:2", target.policy());
        assertNull(
            target.timing(target.send(0).get(1, TimeUnit.MINUTES)),
            "a server given no timings sends no Server-Timing header");
        target.send(1).get(1, TimeUnit.MINUTES);
        assertEquals(2, SchedulerInternals.metrics(scheduler).latency().getTotalCount());
      }
    }
  }

  @Test
  void theServersTimingOfEachSearchReachesTheReplay() throws Exception {
    StandardAnalyzer analyzer = new StandardAnalyzer();
    try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        for (int i = 0; i < 50; i++) {
          Document doc = new Document();
          doc.add(new TextField("body", "open loop replay " + i, Field.Store.NO));
          w.addDocument(doc);
        }
      }
      ServerTimings timings = new ServerTimings();
      try (DirectoryReader reader = DirectoryReader.open(dir);
          Scheduler scheduler =
              SchedulerInternals.policy(Scheduler.builder(), "fixed:2")
                  .workers(2)
                  .listener(timings)
                  .build();
          SearchServer server =
              new SearchServer(
                  new TailorSearcher(reader, scheduler),
                  analyzer,
                  "body",
                  SearchServer.Options.defaults(),
                  null,
                  timings);
          HttpTarget target =
              new HttpTarget(
                  URI.create("http://127.0.0.1:" + server.address().getPort()),
                  List.of("replay", "loop"))) {
        for (int q = 0; q < 2; q++) {
          long sent = System.nanoTime();
          Object answer = target.send(q).get(1, TimeUnit.MINUTES);
          long latency = System.nanoTime() - sent;
          ServerTiming timing = target.timing(answer);
          assertNotNull(timing, "every answer says what its served time was made of");
          long served = timing.queuedNanos() + timing.dispatchNanos() + timing.runNanos();
          // The server's parts lie inside the client's round trip, on the same clock; the header
          // rounds each to the nanosecond.
          assertTrue(timing.runNanos() > 0, timing::toString);
          assertTrue(served <= latency + 3, served + " ns served, " + latency + " ns round trip");
        }
        assertEquals(2, SchedulerInternals.metrics(scheduler).latency().getTotalCount());
      }
    }
  }

  /**
   * A stand-in search server on 127.0.0.1 that answers each query as it names: {@code ok} 200,
   * {@code busy} 503, {@code broken} 500, {@code bad} 400, {@code drop} closes the connection
   * without an answer, {@code hang} never answers until the test ends.
   */
  private static HttpServer stubServer(CountDownLatch release) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/policy",
        exchange -> {
          byte[] body = "{\"policy\":\"stub\"}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (exchange) {
            exchange.getResponseBody().write(body);
          }
        });
    server.createContext(
        "/search",
        exchange -> {
          String q = exchange.getRequestURI().getQuery().replace("q=", "");
          switch (q) {
            case "ok" -> status(exchange, 200);
            case "busy" -> status(exchange, 503);
            case "broken" -> status(exchange, 500);
            case "bad" -> status(exchange, 400);
            case "drop" -> throw new IOException("dropped on purpose"); // closes the connection
            case "hang" -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              status(exchange, 200);
            }
            default -> status(exchange, 404);
          }
        });
    server.start();
    return server;
  }

  private static void status(HttpExchange exchange, int status) throws IOException {
    try (exchange) {
      exchange.sendResponseHeaders(status, -1);
    }
  }

  private static final List<String> QUERIES =
      List.of("ok", "busy", "broken", "bad", "drop", "hang");

  @Test
  void eachFailureIsClassifiedByKind() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    HttpServer server = stubServer(release);
    try (HttpTarget target =
        new HttpTarget(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), QUERIES)) {
      assertEquals("stub", target.policy());
      target.send(0).get(1, TimeUnit.MINUTES);
      assertEquals(Failures.Kind.REJECTED, failure(target, 1).kind());
      assertEquals("HTTP 503", failure(target, 1).getMessage());
      assertEquals(Failures.Kind.STATUS, failure(target, 2).kind());
      assertEquals(Failures.Kind.STATUS, failure(target, 3).kind());
      ExecutionException dropped =
          assertThrows(ExecutionException.class, () -> target.send(4).get(1, TimeUnit.MINUTES));
      assertEquals(Failures.Kind.ERROR, RequestFailedException.kindOf(dropped));
    } finally {
      release.countDown();
      server.stop(0);
    }
  }

  private static RequestFailedException failure(HttpTarget target, int query) {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> target.send(query).get(1, TimeUnit.MINUTES));
    return assertInstanceOf(RequestFailedException.class, e.getCause());
  }

  /**
   * A replay against the stand-in counts one request of each query: the hanging one unanswered once
   * every other has been answered (the test's clock ends the drain then, not a timer).
   */
  @Test
  void aReplayCountsEachKindApart() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    HttpServer server = stubServer(release);
    CountDownLatch answered = new CountDownLatch(QUERIES.size() - 1);
    try (HttpTarget http =
        new HttpTarget(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), QUERIES)) {
      Target counted = new AnswerCounting(http, answered);
      ReplayClock drainOnceAnswered =
          new ReplayClock() {
            @Override
            public long nanoTime() {
              return System.nanoTime();
            }

            @Override
            public void waitUntil(long deadline) {
              ReplayClock.SYSTEM.waitUntil(deadline);
            }

            @Override
            public boolean awaitUntil(CountDownLatch latch, long deadline)
                throws InterruptedException {
              assertTrue(answered.await(1, TimeUnit.MINUTES), "hang guard");
              return latch.getCount() == 0;
            }
          };
      PointResult r =
          OpenLoopReplayer.run(
              counted,
              new long[QUERIES.size()],
              new int[] {0, 1, 2, 3, 4, 5},
              new OpenLoopReplayer.Settings(0, 100, TimeUnit.MINUTES.toNanos(1), List.of()),
              new OpenLoopReplayer.Labels(1, "test", 1, "measured", "none"),
              drainOnceAnswered);
      assertEquals(6, r.sent());
      assertEquals(1, r.completed());
      assertEquals(new Failures(1, 2, 1, 1), r.failures());
      assertEquals(1, r.decodeLatency().getTotalCount());
    } finally {
      release.countDown();
      server.stop(0);
    }
  }

  /**
   * A target whose futures complete after the replay has taken their answers: each answer counts
   * down {@code answered} once the replay's own callback on it has run.
   */
  private record AnswerCounting(Target inner, CountDownLatch answered) implements Target {
    @Override
    public CompletableFuture<?> send(int query) {
      CompletableFuture<Object> out = new CompletableFuture<>();
      inner
          .send(query)
          .whenComplete(
              (result, error) -> {
                if (error == null) {
                  out.complete(result);
                } else {
                  out.completeExceptionally(error);
                }
                answered.countDown();
              });
      return out;
    }

    @Override
    public String policy() {
      return inner.policy();
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
