package dev.tailor.sim;

import java.util.Locale;

/**
 * A configuration of plain Lucene that users run instead of Tailor, as the simulator models it
 * ({@link PeerSimulator}): which threads take the requests, which run their slices, and how many
 * slices a search gets. Five specifications, the first three those of a real replay's baselines:
 *
 * <ul>
 *   <li>{@value #LUCENE}: an {@code IndexSearcher} without an executor; {@code cores} request
 *       threads, each search one slice on its own thread;
 *   <li>{@value #LUCENE_EXECUTOR}{@code :N}: an {@code IndexSearcher} with a fixed pool of N
 *       threads; {@code cores} request threads, Lucene's default slices of the index ({@link
 *       IndexLayout#luceneSlices}), forked by Lucene 10's {@code TaskExecutor} as one task for each
 *       slice but the first, every task claiming the next slice not yet started, the caller
 *       claiming slices too until none is left and then waiting for the rest;
 *   <li>{@value #ELASTICSEARCH}{@code :N}: Elasticsearch 8.12+'s rule ({@code
 *       DefaultSearchContext.determineMaximumNumberOfSlices}): one pool of N threads runs both the
 *       requests and their slices; a search starting on it reads the pool's queue once and gets
 *       Lucene's slices capped at N ({@link IndexLayout#capped}) when the queue holds at most N
 *       tasks, else one slice;
 *   <li>{@value #OPENSEARCH}: OpenSearch 3.x's concurrent segment search at its default slice
 *       count: the {@code search} pool's {@code cores * 3 / 2 + 1} request threads, the {@code
 *       index_searcher} pool's {@code 2 * cores} for the slices, and {@code max(1, min(cores / 2,
 *       4))} slices ({@code search.concurrent.max_slice_count}, {@link IndexLayout#maxTarget});
 *   <li>{@value #OPENSEARCH_AUTO}: OpenSearch 3.x's default mode, {@code auto}, on requests without
 *       aggregations, which it searches sequentially: the {@code search} pool's request threads,
 *       one slice each.
 * </ul>
 *
 * @param spec the specification as given
 * @param requestThreads the threads that take requests
 * @param sliceThreads the threads of the slices' own pool; 0 where the request threads run the
 *     slices too ({@value #ELASTICSEARCH}) or there is none
 * @param slicing how a search's slices are cut
 * @param sliceCount the slices' count where the rule has one: Elasticsearch's N, OpenSearch's
 *     target; 0 otherwise
 */
public record Peer(
    String spec, int requestThreads, int sliceThreads, Windowing slicing, int sliceCount) {

  /** Plain Lucene without an executor. */
  public static final String LUCENE = "lucene";

  /** Lucene with a fixed executor of N threads: {@code lucene-executor:N}. */
  public static final String LUCENE_EXECUTOR = "lucene-executor";

  /** Elasticsearch's rule on one pool of N threads: {@code elasticsearch:N}. */
  public static final String ELASTICSEARCH = "elasticsearch";

  /** OpenSearch's concurrent segment search at its default slice count. */
  public static final String OPENSEARCH = "opensearch";

  /** OpenSearch's default mode on requests without aggregations: sequential. */
  public static final String OPENSEARCH_AUTO = "opensearch:auto";

  /** How a peer cuts a search into slices. */
  public enum Windowing {
    /** One slice of every segment, on the request thread. */
    NONE,
    /** Lucene's default slices. */
    LUCENE,
    /** Elasticsearch's: Lucene's capped at N while the queue holds at most N tasks, else one. */
    ELASTICSEARCH,
    /** OpenSearch's: at most the target count, segments greedily by documents. */
    MAX_TARGET
  }

  /** Whether {@code spec} names a peer (well formed or not): its name before any {@code :N}. */
  public static boolean isSpec(String spec) {
    String s = spec.trim().toLowerCase(Locale.ROOT);
    int colon = s.indexOf(':');
    String name = colon < 0 ? s : s.substring(0, colon);
    return name.equals(LUCENE)
        || name.equals(LUCENE_EXECUTOR)
        || name.equals(ELASTICSEARCH)
        || name.equals(OPENSEARCH);
  }

  /**
   * The peer {@code spec} names on a machine of {@code cores} cores; a bare {@value
   * #LUCENE_EXECUTOR} or {@value #ELASTICSEARCH} has a pool of one thread per core, and is named
   * with that count ({@code lucene-executor:16} on 16 cores).
   *
   * @throws IllegalArgumentException naming the specification if it is no peer or its thread count
   *     is not a whole number of at least 1
   */
  public static Peer parse(String spec, int cores) {
    if (cores < 1) {
      throw new IllegalArgumentException("need at least 1 core, got " + cores);
    }
    String s = spec.trim().toLowerCase(Locale.ROOT);
    int searchPool = cores * 3 / 2 + 1; // OpenSearch's search pool: ((processors * 3) / 2) + 1
    return switch (s) {
      case LUCENE -> new Peer(s, cores, 0, Windowing.NONE, 0);
      case OPENSEARCH ->
          new Peer(
              s, searchPool, 2 * cores, Windowing.MAX_TARGET, Math.max(1, Math.min(cores / 2, 4)));
      case OPENSEARCH_AUTO -> new Peer(s, searchPool, 0, Windowing.NONE, 0);
      // Bare, a pool of one thread per core, as the demo runs them: named with its count.
      case LUCENE_EXECUTOR -> parse(LUCENE_EXECUTOR + ":" + cores, cores);
      case ELASTICSEARCH -> parse(ELASTICSEARCH + ":" + cores, cores);
      default -> {
        if (s.startsWith(LUCENE_EXECUTOR + ":")) {
          yield new Peer(s, cores, threads(spec, s), Windowing.LUCENE, 0);
        }
        if (s.startsWith(ELASTICSEARCH + ":")) {
          int n = threads(spec, s);
          yield new Peer(s, n, 0, Windowing.ELASTICSEARCH, n);
        }
        throw new IllegalArgumentException(
            "'"
                + spec
                + "' is no plain-Lucene peer: expected "
                + LUCENE
                + ", "
                + LUCENE_EXECUTOR
                + "[:N], "
                + ELASTICSEARCH
                + "[:N] (N >= 1 threads, one per core without it), "
                + OPENSEARCH
                + " or "
                + OPENSEARCH_AUTO);
      }
    };
  }

  private static int threads(String spec, String s) {
    String n = s.substring(s.indexOf(':') + 1);
    try {
      int threads = Integer.parseInt(n);
      if (threads >= 1) {
        return threads;
      }
    } catch (NumberFormatException e) {
      // refused below, naming the specification
    }
    throw new IllegalArgumentException(
        "'" + spec + "': the thread count must be a whole number >= 1, got '" + n + "'");
  }

  /** Whether the slices run on the request threads' own pool. */
  boolean sharedPool() {
    return slicing == Windowing.ELASTICSEARCH;
  }
}
