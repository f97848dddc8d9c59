package dev.tailor.studies.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.arrival.RequestOrder;
import dev.tailor.sim.model.LogNormalProfile;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ShardWorkTest {

  private static final int QUERIES = 4_000;
  private static final DemandProfile BASE =
      LogNormalProfile.generate(LogNormalProfile.Shape.parse("10ms,13ms"), QUERIES, 16, 5);
  private static final int[] ORDER = RequestOrder.shuffled(QUERIES, QUERIES, 5);

  private static long work(DemandProfile p, int j) {
    return p.requests().get(j).sequentialNanos();
  }

  @Test
  void correlatedShardsEachGetTheQuerysWorkOverNTimesANoiseOfTheGivenSpread() {
    int shards = 8;
    double sd = 0.3;
    DemandProfile[] p = new DemandProfile[shards];
    for (int s = 0; s < shards; s++) {
      p[s] = ShardWork.correlated(sd).shardProfile(BASE, ORDER, s, shards, 11, true);
      assertEquals(QUERIES, p[s].requests().size());
    }
    // The factor of each (query, shard) is work x N / the query's work: mean 1, sd 0.3.
    double sum = 0;
    double sumSq = 0;
    for (int j = 0; j < QUERIES; j++) {
      long query = work(BASE, ORDER[j]);
      for (int s = 0; s < shards; s++) {
        double f = (double) work(p[s], j) * shards / query;
        sum += f;
        sumSq += f * f;
        // The unit times are the query's, scaled alike.
        long[] units = p[s].requests().get(j).unitNanos();
        long[] given = BASE.requests().get(ORDER[j]).unitNanos();
        assertEquals(given.length, units.length);
        assertEquals(given[0] * f / shards, units[0], 1 + 1e-6 * given[0]);
      }
    }
    int n = QUERIES * shards;
    double mean = sum / n;
    double spread = Math.sqrt(sumSq / n - mean * mean);
    assertEquals(1, mean, 0.01);
    assertEquals(sd, spread, 0.01);
  }

  @Test
  void withoutNoiseEveryShardGetsExactlyItsShare() {
    DemandProfile a = ShardWork.correlated(0).shardProfile(BASE, ORDER, 0, 4, 1, false);
    DemandProfile b = ShardWork.correlated(0).shardProfile(BASE, ORDER, 3, 4, 2, false);
    for (int j = 0; j < QUERIES; j++) {
      assertEquals(Math.round(work(BASE, ORDER[j]) / 4.0), work(a, j), 1);
      assertEquals(work(a, j), work(b, j));
      assertEquals(null, a.requests().get(j).unitNanos(), "the fluid model needs no units");
    }
  }

  @Test
  void independentShardsDrawTheirOwnQueriesAndTheFirstTheArrivalsOwn() {
    ShardWork w = ShardWork.independent(0);
    DemandProfile first = w.shardProfile(BASE, ORDER, 0, 2, 1, true);
    DemandProfile second = w.shardProfile(BASE, ORDER, 1, 2, 1, true);
    long[] a = new long[QUERIES];
    long[] b = new long[QUERIES];
    int same = 0;
    for (int j = 0; j < QUERIES; j++) {
      a[j] = work(first, j);
      b[j] = work(second, j);
      assertEquals(Math.round(work(BASE, ORDER[j]) / 2.0), a[j], 1);
      same += first.requests().get(j).id().equals(second.requests().get(j).id()) ? 1 : 0;
    }
    assertTrue(same < 10, same + " arrivals asked the same query on both shards");
    // Each shard sees every query once: the same work, in another order.
    Arrays.sort(a);
    Arrays.sort(b);
    assertEquals(Arrays.toString(a), Arrays.toString(b));
  }

  @Test
  void aSingleShardRunsTheQueryItselfAndTheSeedDecidesTheNoise() {
    DemandProfile one = ShardWork.correlated(0.5).shardProfile(BASE, ORDER, 0, 1, 9, true);
    for (int j = 0; j < QUERIES; j++) {
      assertSame(BASE.requests().get(ORDER[j]), one.requests().get(j));
    }
    ShardWork w = ShardWork.correlated(0.5);
    assertEquals(
        w.shardProfile(BASE, ORDER, 2, 3, 9, false).requests(),
        w.shardProfile(BASE, ORDER, 2, 3, 9, false).requests());
    assertNotEquals(
        work(w.shardProfile(BASE, ORDER, 2, 3, 9, false), 0),
        work(w.shardProfile(BASE, ORDER, 2, 3, 10, false), 0));
  }

  @Test
  void predictionsAreDividedAmongTheShardsWithoutTheNoise() {
    long[] predicted = new long[QUERIES];
    Arrays.setAll(predicted, i -> 1_000_000L + i);
    DemandProfile withPredictions =
        BASE.withPredictions(new DemandProfile.Predictions(null, null, "test", predicted));
    DemandProfile shard =
        ShardWork.correlated(0.3).shardProfile(withPredictions, ORDER, 1, 4, 1, false);
    for (int j = 0; j < QUERIES; j++) {
      assertEquals(Math.round(predicted[ORDER[j]] / 4.0), shard.predictedNanos(j));
    }
  }
}
