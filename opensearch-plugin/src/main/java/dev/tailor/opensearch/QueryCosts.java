package dev.tailor.opensearch;

import java.util.concurrent.atomic.AtomicLongArray;
import org.opensearch.index.query.QueryBuilder;

/**
 * The decider's prediction: what the same query cost on this node the last times it ran, per index.
 * Search logs repeat their queries (a popular query recurs many times a day), so the cost of a
 * query's previous query phases is a prediction that needs no model and no features: a query seen
 * before is predicted by a smoothed mean of its measured costs, an unseen one has no prediction.
 *
 * <p>A fixed table of {@value #SLOTS} slots, each one {@code long}: the upper 32 bits a hash of the
 * index and the query, the lower 32 bits the cost in microseconds. One word per slot makes a read
 * or a write atomic without a lock; a slot another query takes over is simply forgotten, and two
 * queries that share a 32-bit hash and a slot share a prediction (a prediction may be wrong, a
 * search result never is). No allocation on either path.
 */
final class QueryCosts {

  /** Slots in the table; a power of two. */
  static final int SLOTS = 4096;

  /** What {@link #predictNanos} returns for a query with no recorded cost. */
  static final long UNKNOWN = -1L;

  private static final long MAX_MICROS = 0xFFFF_FFFFL;

  private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

  /**
   * The key of a query on an index: a mix of the index name's hash and the query's structural hash
   * ({@code QueryBuilder.hashCode}, equal for equal queries). Never 0, which marks an empty slot.
   */
  static int key(String index, QueryBuilder query) {
    long h = index.hashCode() * 0x9E3779B97F4A7C15L + (query == null ? 0 : query.hashCode());
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    h ^= h >>> 32;
    int key = (int) h;
    return key == 0 ? 1 : key;
  }

  /** The predicted cost of the query with key {@code key}, or {@link #UNKNOWN}. */
  long predictNanos(int key) {
    long slot = slots.get(index(key));
    if (slot == 0 || (int) (slot >>> 32) != key) {
      return UNKNOWN;
    }
    return (slot & MAX_MICROS) * 1000;
  }

  /**
   * Records a query phase's cost: its busy time across threads, so the sequential time it stands
   * for. A query seen before moves a quarter of the way to the new figure, to follow a slow change
   * (an index growing) without being thrown by one outlier.
   */
  void record(int key, long costNanos) {
    long micros = Math.min(MAX_MICROS, Math.max(0, costNanos) / 1000);
    int i = index(key);
    long old = slots.get(i);
    if (old != 0 && (int) (old >>> 32) == key) {
      micros = ((old & MAX_MICROS) * 3 + micros) / 4;
    }
    slots.set(i, ((long) key << 32) | micros);
  }

  private static int index(int key) {
    return (key ^ (key >>> 16)) & (SLOTS - 1);
  }
}
