package dev.tailor.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tailor.core.Predictor;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.policy.SystemView;
import dev.tailor.lucene.TailorSearcher;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Terms;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * A server over a small index for tests: 200 documents in one segment, each with {@code common},
 * one of {@code w0..w9} and one of {@code v0..v6}. Every search passes a {@link Gate} as it first
 * reads the index, so a test can hold searches inside the scheduler, count them, or make the index
 * fail. HTTP helpers talk to it on 127.0.0.1 over HTTP/1.1; the only time bound anywhere is a
 * failure timeout of a minute.
 */
final class ServerFixture implements AutoCloseable {

  static final String FIELD = "body";
  static final Analyzer ANALYZER = new StandardAnalyzer();
  static final Duration FAILURE_TIMEOUT = Duration.ofMinutes(1);
  private static final ObjectMapper JSON = new ObjectMapper();

  final Gate gate = new Gate();
  final Scheduler scheduler;
  final SearchServer server;
  final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(FAILURE_TIMEOUT)
          .build();
  private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
  private final DirectoryReader reader;

  ServerFixture(Scheduler.Builder scheduler, SearchServer.Options options) throws IOException {
    this(scheduler, options, null);
  }

  ServerFixture(
      Scheduler.Builder scheduler, SearchServer.Options options, Predictor<Query> predictor)
      throws IOException {
    try (IndexWriter w = new IndexWriter(directory, new IndexWriterConfig(ANALYZER))) {
      for (int i = 0; i < 200; i++) {
        Document doc = new Document();
        doc.add(new TextField(FIELD, "common w" + i % 10 + " v" + i % 7, Field.Store.NO));
        w.addDocument(doc);
      }
    }
    this.reader = new GatedReader(DirectoryReader.open(directory), gate);
    this.scheduler = scheduler.build();
    SystemView load = SchedulerInternals.systemView(this.scheduler);
    gate.load = () -> load.activeRequests() + load.queuedRequests();
    this.server =
        new SearchServer(
            new TailorSearcher(reader, this.scheduler), ANALYZER, FIELD, options, predictor);
  }

  @Override
  public void close() throws IOException {
    gate.open();
    // No grace: the JDK's server waits all of it once any exchange ended unanswered (a client
    // cut off), and every test here has its answers before it closes.
    server.stop(Duration.ZERO);
    scheduler.close();
    client.close();
    reader.close();
    directory.close();
  }

  /** A response: its status, its headers' one value that matters here, and its body. */
  record Response(int status, String retryAfter, String contentType, String text) {
    JsonNode json() throws IOException {
      return JSON.readTree(text);
    }

    String error() throws IOException {
      return json().get("error").asText();
    }
  }

  /** The default options with other admission limits, client timeout and labels. */
  static SearchServer.Options options(
      int threads,
      int maxInFlight,
      int acceptQueue,
      Duration clientTimeout,
      int maxLabels,
      List<String> labels) {
    SearchServer.Options d = SearchServer.Options.defaults();
    return new SearchServer.Options(
        d.bind(),
        d.port(),
        threads,
        maxInFlight,
        acceptQueue,
        clientTimeout,
        d.maxBodyBytes(),
        d.maxQueryChars(),
        d.maxClauses(),
        d.maxHits(),
        maxLabels,
        labels,
        d.totalHitsThreshold());
  }

  /** The default options with other admission limits. */
  static SearchServer.Options admitting(int threads, int maxInFlight, int acceptQueue) {
    SearchServer.Options d = SearchServer.Options.defaults();
    return options(threads, maxInFlight, acceptQueue, d.clientTimeout(), d.maxLabels(), d.labels());
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.address().getPort() + pathAndQuery);
  }

  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  HttpRequest.Builder request(String pathAndQuery) {
    return HttpRequest.newBuilder(uri(pathAndQuery)).timeout(FAILURE_TIMEOUT);
  }

  Response send(HttpRequest request) throws IOException, InterruptedException {
    return response(client.send(request, HttpResponse.BodyHandlers.ofString()));
  }

  static Response response(HttpResponse<String> r) {
    return new Response(
        r.statusCode(),
        r.headers().firstValue("Retry-After").orElse(null),
        r.headers().firstValue("Content-Type").orElse(null),
        r.body());
  }

  Response get(String pathAndQuery) throws IOException, InterruptedException {
    return send(request(pathAndQuery).build());
  }

  Response post(String json) throws IOException, InterruptedException {
    return send(request("/search").POST(HttpRequest.BodyPublishers.ofString(json)).build());
  }

  JsonNode stats() throws IOException, InterruptedException {
    return get("/stats").json();
  }

  /**
   * The stats once no search is counted in flight. A search leaves the count just after its
   * response is written, so its client may read the response, and send the next request, a moment
   * before that: this waits the moment out (asking again at once), failing after the failure
   * timeout.
   */
  JsonNode statsWhenIdle() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + FAILURE_TIMEOUT.toNanos();
    while (true) {
      JsonNode stats = stats();
      int inFlight = stats.get("http").get("inFlight").asInt();
      if (inFlight == 0) {
        return stats;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(inFlight + " searches still counted in flight: " + stats);
      }
    }
  }

  /** A raw connection, for what a well-behaved client never sends. */
  Socket connect() throws IOException {
    Socket socket = new Socket();
    socket.connect(
        new InetSocketAddress("127.0.0.1", server.address().getPort()),
        (int) FAILURE_TIMEOUT.toMillis());
    socket.setSoTimeout((int) FAILURE_TIMEOUT.toMillis());
    return socket;
  }

  static void write(Socket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  /** Everything the server sends until it closes the connection (a reset counts as closing). */
  static String readToClose(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder out = new StringBuilder();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
      }
    } catch (java.net.SocketException reset) {
      // closed with unread data on its side: closed all the same
    }
    return out.toString();
  }

  /** The status line and headers of one response, read up to the blank line. */
  static String readHead(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.append((char) b);
    }
    return head.toString();
  }

  /**
   * Where searches first read the index. Open, it lets them through; shut, it holds each one there
   * until it opens, counting the searches held.
   */
  static final class Gate {
    private volatile CountDownLatch open = new CountDownLatch(0);
    private final Semaphore held = new Semaphore(0);
    private final AtomicInteger maxLoad = new AtomicInteger();
    volatile boolean failing;
    volatile java.util.function.IntSupplier load = () -> 0;

    void shut() {
      open = new CountDownLatch(1);
    }

    void open() {
      open.countDown();
    }

    /** Waits until {@code n} more searches are held; false after the failure timeout. */
    boolean awaitHeld(int n) throws InterruptedException {
      return held.tryAcquire(n, FAILURE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The most searches the scheduler held (running or queued) when one reached the index. */
    int maxLoad() {
      return maxLoad.get();
    }

    void pass() throws IOException {
      maxLoad.accumulateAndGet(load.getAsInt(), Math::max);
      if (failing) {
        throw new IOException("secret detail: /srv/index/_0.cfs checksum failed");
      }
      CountDownLatch latch = open;
      if (latch.getCount() > 0) {
        held.release();
        try {
          if (!latch.await(FAILURE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the test never opened the gate");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    }
  }

  /** Passes the gate whenever a search asks a segment for its terms. */
  private static final class GatedReader extends FilterDirectoryReader {
    private final Gate gate;

    GatedReader(DirectoryReader in, Gate gate) throws IOException {
      super(
          in,
          new SubReaderWrapper() {
            @Override
            public LeafReader wrap(LeafReader reader) {
              return new FilterLeafReader(reader) {
                @Override
                public Terms terms(String field) throws IOException {
                  gate.pass();
                  return super.terms(field);
                }

                @Override
                public CacheHelper getCoreCacheHelper() {
                  return null; // nothing cached: every search passes the gate
                }

                @Override
                public CacheHelper getReaderCacheHelper() {
                  return null;
                }
              };
            }
          });
      this.gate = gate;
    }

    @Override
    protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) throws IOException {
      return new GatedReader(in, gate);
    }

    @Override
    public CacheHelper getReaderCacheHelper() {
      return null;
    }
  }
}
