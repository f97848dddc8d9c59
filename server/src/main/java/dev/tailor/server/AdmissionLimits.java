package dev.tailor.server;

import java.time.Duration;
import java.util.List;

/**
 * How many searches a server admits, queues and has threads for, fitted together so that overload
 * is refused fast, not queued. With {@code W} workers the scheduler's admission queue holds {@code
 * Q = 4W} searches by default, the server admits {@code W + Q} at once (each one running, holding a
 * slot, or queued), so it refuses exactly when the scheduler's queue is full, and it has {@code W +
 * Q + max(8, W)} request threads, the ones no search can take left to refuse with a 503 and to
 * answer {@code /stats}. Connections waiting for a thread queue up to the number of threads.
 *
 * @param workers the scheduler's budget
 * @param queue the scheduler's admission queue capacity
 * @param maxInFlight searches the server admits at once
 * @param threads request threads
 * @param acceptQueue connections waiting for a thread
 */
public record AdmissionLimits(
    int workers, int queue, int maxInFlight, int threads, int acceptQueue) {

  /** What a server caps request headers at: ample for a 1,000-character query, encoded. */
  public static final int MAX_HEADER_BYTES = 16 * 1024;

  /** The idle keep-alive connections the JDK's server keeps at most, by default. */
  private static final int JDK_MAX_IDLE_CONNECTIONS = 200;

  /**
   * The limits, each one not given (null) filled in from the ones before it.
   *
   * @throws IllegalArgumentException naming the option if the limits do not fit together
   */
  public static AdmissionLimits of(
      int workers, Integer queue, Integer maxInFlight, Integer threads, Integer acceptQueue) {
    int q = queue != null ? queue : 4 * workers;
    int f = maxInFlight != null ? maxInFlight : workers + q;
    int t = threads != null ? threads : f + Math.max(8, workers);
    int a = acceptQueue != null ? acceptQueue : t;
    if (q < 1 || f < 1 || a < 1) {
      throw new IllegalArgumentException(
          "--queue, --max-in-flight and --accept-queue must be >= 1, got "
              + q
              + ", "
              + f
              + ", "
              + a);
    }
    if (t <= f) {
      throw new IllegalArgumentException(
          "--http-threads ("
              + t
              + ") must be more than --max-in-flight ("
              + f
              + "): the threads beyond it refuse requests when searches hold the rest");
    }
    return new AdmissionLimits(workers, q, f, t, a);
  }

  /**
   * A server's options under these limits, its other bounds (body, query, clauses, hits) the
   * defaults.
   *
   * @param clientTimeout how long a client may take to send a request, and to take its response
   * @param maxLabels distinct labels with a metrics group of their own
   * @param labels labels that always have one
   * @param totalHits how far each search counts its hits
   */
  public SearchServer.Options serverOptions(
      String bind,
      int port,
      Duration clientTimeout,
      int maxLabels,
      List<String> labels,
      int totalHits) {
    SearchServer.Options d = SearchServer.Options.defaults();
    return new SearchServer.Options(
        bind,
        port,
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
        totalHits);
  }

  /**
   * Sets the JDK HTTP server's JVM-wide limits, each unless the JVM was given it ({@code -D}):
   * these are read once, when its classes load, so this must run before a server is made. Sets
   * {@code sun.net.httpserver.idleInterval}, {@code jdk.httpserver.maxConnections} (by default the
   * threads, the accept queue and the JDK's idle connections) and caps request headers at {@link
   * #MAX_HEADER_BYTES}. It leaves {@code sun.net.httpserver.maxReqTime} and {@code maxRspTime}
   * alone: their documentation says milliseconds where the JDK reads seconds, and {@link
   * SearchServer} bounds both phases itself.
   *
   * <p>JDK 21 and JDK 25 read all of these, with the same units and defaults (200 idle
   * connections), once, in {@code
   * src/jdk.httpserver/share/classes/sun/net/httpserver/ServerConfig.java}'s static initializer;
   * checked there and in the classes of Temurin 21.0.8 and 25.0.3 (with {@code javap}).
   *
   * @param idleSeconds how long an idle keep-alive connection is kept, at least 1
   * @param maxConnections open connections at most, idle ones included, or null for the default
   */
  public void setJvmWide(long idleSeconds, Integer maxConnections) {
    jvmWide("sun.net.httpserver.idleInterval", Math.max(1, idleSeconds));
    jvmWide(
        "jdk.httpserver.maxConnections",
        maxConnections != null ? maxConnections : threads + acceptQueue + JDK_MAX_IDLE_CONNECTIONS);
    jvmWide("sun.net.httpserver.maxReqHeaderSize", MAX_HEADER_BYTES);
  }

  private static void jvmWide(String key, long value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, Long.toString(value));
    }
  }
}
