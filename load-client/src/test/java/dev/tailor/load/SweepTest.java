package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.PointResult;
import dev.tailor.sim.arrival.SweepPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The sweep's interleaved, rotated order, its warm-up run and its resolver. */
class SweepTest {

  private static final long MS = 1_000_000L;

  @Test
  void everyRoundRunsEveryPolicyOnceAndTheOrderIsBalanced() {
    for (int n = 1; n <= 7; n++) {
      int rows = n % 2 == 0 ? n : 2 * n;
      int[] first = new int[n];
      int[][] follows = new int[n][n];
      for (int round = 0; round < rows; round++) {
        int[] order = Sweep.order(n, round);
        assertArrayEquals(order, Sweep.order(n, round), "deterministic");
        assertArrayEquals(order, Sweep.order(n, round + rows), "periodic");
        int[] sorted = order.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < n; i++) {
          assertEquals(i, sorted[i], "round " + round + " of " + n + ": each policy once");
        }
        first[order[0]]++;
        for (int i = 1; i < n; i++) {
          follows[order[i - 1]][order[i]]++;
        }
      }
      // Each policy runs first equally often, and right after each other policy equally often.
      for (int p = 0; p < n; p++) {
        assertEquals(rows / n, first[p], n + " policies: first");
        for (int q = 0; q < n; q++) {
          assertEquals(p == q ? 0 : rows / n, follows[p][q], n + " policies: " + q + " after " + p);
        }
      }
    }
    assertArrayEquals(new int[] {0, 1, 3, 2}, Sweep.order(4, 0));
    assertArrayEquals(new int[] {1, 2, 0, 3}, Sweep.order(4, 1));
    assertArrayEquals(new int[] {0, 1, 2}, Sweep.order(3, 0));
    assertArrayEquals(new int[] {2, 1, 0}, Sweep.order(3, 3));
    assertThrows(IllegalArgumentException.class, () -> Sweep.order(0, 0));
  }

  /** Answers at once; remembers what it was opened with. */
  private static final class Instant implements Target {
    private final String policy;

    Instant(String policy) {
      this.policy = policy;
    }

    @Override
    public CompletableFuture<?> send(int query) {
      return CompletableFuture.completedFuture(query);
    }

    @Override
    public String policy() {
      return policy;
    }

    @Override
    public void close() {}
  }

  @Test
  void repetitionsRunInterleavedAfterAWarmUpAndAResolvedPolicyIsReportedUnderItsListedName()
      throws Exception {
    List<String> opened = new ArrayList<>();
    Map<String, Integer> resolutions = new HashMap<>();
    Sweep.Plan plan =
        new Sweep.Plan(
                List.of("seq", "tuned", "fixed:2"),
                List.of(200.0, 400.0),
                SweepPlan.timed("poisson", 7, 30 * MS, 10 * MS),
                10_000,
                TimeUnit.SECONDS.toNanos(5),
                List.of())
            .withRepetitions(2)
            .withResolver(
                (listed, rps) -> {
                  resolutions.merge(listed + "@" + rps, 1, Integer::sum);
                  return listed.equals("tuned") ? "fixed:" + (int) (rps / 100) : listed;
                });
    assertEquals(12, plan.size());
    List<PointResult> points =
        Sweep.run(
            plan,
            policy -> {
              opened.add(policy);
              return new Instant(policy);
            },
            5,
            "test",
            "test corpus",
            p -> {});

    // The warm-up opens every policy once, at the first load, before any measured point.
    assertEquals(List.of("seq", "fixed:2", "fixed:2"), opened.subList(0, 3));
    List<String> measured = opened.subList(3, opened.size());
    assertEquals(12, measured.size());
    assertEquals(12, points.size());
    assertTrue(points.stream().allMatch(p -> p.noise() != null), "every point has its noise");

    // Round k is load k % 2 of repetition k / 2 + 1, in the k-th row of the design: every
    // repetition runs every load in turn.
    List<String> listed = plan.policies();
    for (int k = 0; k < 4; k++) {
      int[] order = Sweep.order(3, k);
      for (int j = 0; j < 3; j++) {
        PointResult p = points.get(3 * k + j);
        assertEquals(listed.get(order[j]), p.policy(), "round " + k);
        assertEquals(k / 2 + 1, p.repetition());
        assertEquals(k % 2 == 0 ? 200.0 : 400.0, p.offeredRps());
      }
    }
    // The resolved policy ran, reported under the listed name; resolved once per policy and load.
    assertTrue(measured.contains("fixed:2") && measured.contains("fixed:4"), measured.toString());
    assertEquals(0, points.stream().filter(p -> p.policy().startsWith("fixed:4")).count());
    assertEquals(4, points.stream().filter(p -> p.policy().equals("tuned")).count());
    assertEquals(6, resolutions.size());
    assertTrue(resolutions.values().stream().allMatch(c -> c == 1), resolutions.toString());
  }

  @Test
  void workerCountsAreColumnsInterleavedWithThePoliciesAndTheirPointsSayTheirCount()
      throws Exception {
    List<String> opened = new ArrayList<>();
    Sweep.Plan plan =
        new Sweep.Plan(
                List.of("seq", "fixed:2"),
                List.of(200.0, 400.0),
                SweepPlan.timed("poisson", 7, 30 * MS, 10 * MS),
                10_000,
                TimeUnit.SECONDS.toNanos(5),
                List.of())
            .withRepetitions(2)
            .withWorkers(List.of(1, 2));
    assertEquals(16, plan.size());
    Sweep.Targets targets =
        new Sweep.Targets() {
          @Override
          public Target open(String policy) {
            throw new AssertionError("a sweep of worker counts opens every target with its count");
          }

          @Override
          public Target open(String policy, int workers) {
            opened.add(policy + "/" + workers);
            return new Instant(policy);
          }
        };
    List<PointResult> points = Sweep.run(plan, targets, 5, "base", "test corpus", p -> {});

    // The warm-up opens every column once; then every round runs every column once, in the
    // design's order over the four columns (policy by policy, each at 1 and then 2 workers).
    assertEquals(List.of("seq/1", "seq/2", "fixed:2/1", "fixed:2/2"), opened.subList(0, 4));
    List<String> columns = List.of("seq/1", "seq/2", "fixed:2/1", "fixed:2/2");
    assertEquals(16, points.size());
    for (int k = 0; k < 4; k++) {
      int[] order = Sweep.order(4, k);
      for (int j = 0; j < 4; j++) {
        String column = columns.get(order[j]);
        assertEquals(column, opened.get(4 + 4 * k + j), "round " + k);
        PointResult p = points.get(4 * k + j);
        assertEquals(column.substring(0, column.indexOf('/')), p.policy());
        String count = column.endsWith("/1") ? "1 worker" : "2 workers";
        assertEquals("base, " + count, p.environment(), "round " + k);
        assertEquals(column.endsWith("/1") ? 1 : 2, p.workers());
      }
    }
  }

  @Test
  void aTargetThatCannotSetItsWorkersRefusesASweepOfWorkerCounts() throws Exception {
    Sweep.Targets own = policy -> new Instant(policy);
    assertThrows(IllegalArgumentException.class, () -> own.open("seq", 2));
    assertEquals("seq", own.open("seq", 0).policy());
    Sweep.Plan plan =
        new Sweep.Plan(
            List.of("seq"),
            List.of(10.0),
            SweepPlan.timed("poisson", 7, 30 * MS, 10 * MS),
            10,
            MS,
            List.of());
    assertThrows(IllegalArgumentException.class, () -> plan.withWorkers(List.of(0)));
    assertThrows(IllegalArgumentException.class, () -> plan.withWorkers(List.of(2, 2)));
  }

  @Test
  void aPlanNeedsAtLeastOneRepetition() {
    Sweep.Plan plan =
        new Sweep.Plan(
            List.of("seq"),
            List.of(10.0),
            SweepPlan.timed("poisson", 7, 30 * MS, 10 * MS),
            10,
            MS,
            List.of());
    assertEquals(1, plan.repetitions());
    assertThrows(IllegalArgumentException.class, () -> plan.withRepetitions(0));
  }
}
