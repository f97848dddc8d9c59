package dev.tailor.load;

import dev.tailor.core.Predictor;
import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.Policies;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.TotalHits;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.PointResult;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.Query;

/**
 * A sweep against a scheduler in this process: the trace's queries run a few times first, so that
 * the first policy measured does not pay alone for the JIT compiler and a cold index, then the
 * {@link Sweep} (its own warm-up run of every policy, then every point, interleaved) against a
 * fresh {@link InProcessTarget} per point, or for the plain Lucene baselines ({@link
 * LuceneTarget#isSpec}: {@code lucene}, {@code lucene-executor:N}, {@code elasticsearch:N}) a fresh
 * {@link LuceneTarget}, interleaved with the policies like any of them, on the same workers, queue
 * limit and total-hits threshold.
 */
public final class InProcessSweep {

  /** How many times each query runs before the first point. */
  public static final int WARM_UP_ROUNDS = 3;

  /**
   * The in-process server.
   *
   * @param workers the parallelism budget; for {@code lucene} and {@code lucene-executor:N}, their
   *     request threads ({@code elasticsearch:N} runs on its own pool of N). A plan that sweeps
   *     worker counts ({@link Sweep.Plan#withWorkers}) sets it per column; the units each query is
   *     cut into stay this server's
   * @param queue the admission queue limit; for a Lucene baseline, its request queue's
   * @param unitsPerQuery the units each query is cut into; not the Lucene baselines', which cut
   *     queries into Lucene's own slices
   * @param maxDegree the degree cap of every policy ({@link DegreeCap}), or 0 for none; the Lucene
   *     baselines are not capped, no policy of Tailor's deciding their threads
   * @param predictor predicts each query's sequential time as it is sent, for the policies that are
   *     not clairvoyant; null for none. The Lucene baselines predict nothing
   * @param totalHitsThreshold each search counts its hits exactly up to this many ({@link
   *     TotalHits#EXACT} for all): as the profile of the replayed queries did
   */
  public record Server(
      int workers,
      int queue,
      int unitsPerQuery,
      int maxDegree,
      Predictor<Query> predictor,
      int totalHitsThreshold) {

    /**
     * Checks the cap.
     *
     * @throws IllegalArgumentException if the cap is negative
     */
    public Server {
      if (maxDegree < 0) {
        throw new IllegalArgumentException("the degree cap must be >= 1 or 0 (none)");
      }
      if (totalHitsThreshold < 1) {
        throw new IllegalArgumentException("the total-hits threshold must be >= 1");
      }
    }

    /** A server whose searches count hits up to Lucene's default threshold. */
    public Server(
        int workers, int queue, int unitsPerQuery, int maxDegree, Predictor<Query> predictor) {
      this(
          workers,
          queue,
          unitsPerQuery,
          maxDegree,
          predictor,
          DemandProfile.Settings.DEFAULT_TOTAL_HITS_THRESHOLD);
    }

    /** A server without a degree cap and without a predictor. */
    public Server(int workers, int queue, int unitsPerQuery) {
      this(workers, queue, unitsPerQuery, 0, null);
    }

    /** A server without a predictor. */
    public Server(int workers, int queue, int unitsPerQuery, int maxDegree) {
      this(workers, queue, unitsPerQuery, maxDegree, null);
    }

    /** A server of {@code workers} threads, cutting each query as the drop-in does by default. */
    public static Server of(int workers, int queue) {
      return new Server(workers, queue, Windowing.DEFAULT_WINDOWS_PER_THREAD * workers);
    }
  }

  private InProcessSweep() {}

  /**
   * Warms up, then runs every point, reporting each as it finishes; where the entries have profiled
   * times, each point carries the machine's speed measured just before its run ({@link
   * SpeedProber}).
   *
   * @param environment e.g. "measured on this machine (2 cores)"
   * @param corpus the index's source label
   */
  public static List<PointResult> run(
      IndexReader reader,
      List<InProcessTarget.TraceEntry> entries,
      Sweep.Plan plan,
      Server server,
      String environment,
      String corpus,
      Consumer<PointResult> onPoint)
      throws IOException, InterruptedException {
    return run(
        reader, entries, plan, server, environment, corpus, onPoint, UnaryOperator.identity());
  }

  /**
   * Warms up, then runs every point, as {@link #run(IndexReader, List, Sweep.Plan, Server, String,
   * String, Consumer)} does, every scheduler's builder passed through {@code configure} last (for
   * settings the server has no field for, such as {@link
   * dev.tailor.core.Tuning#withPromptAdmission}); the plain-Lucene baselines have no scheduler to
   * configure.
   */
  public static List<PointResult> run(
      IndexReader reader,
      List<InProcessTarget.TraceEntry> entries,
      Sweep.Plan plan,
      Server server,
      String environment,
      String corpus,
      Consumer<PointResult> onPoint,
      UnaryOperator<Scheduler.Builder> configure)
      throws IOException, InterruptedException {
    int most = plan.workers().stream().mapToInt(Integer::intValue).max().orElse(server.workers());
    warmUp(reader, entries, most, server.totalHitsThreshold());
    SpeedProber prober = SpeedProber.of(reader, entries, server.totalHitsThreshold());
    if (prober != null) {
      // Unrecorded: a replay's first reading of the median queries came out 1.5-1.8 times its later
      // ones, the plain searcher's own warm-up.
      prober.measure();
    }
    Sweep.Targets targets =
        new Sweep.Targets() {
          @Override
          public Target open(String policy) {
            return open(policy, 0);
          }

          @Override
          public Target open(String policy, int workers) {
            int w = workers == 0 ? server.workers() : workers;
            return LuceneTarget.isSpec(policy)
                ? new LuceneTarget(
                    reader, entries, policy, w, server.queue(), server.totalHitsThreshold())
                : new InProcessTarget(
                        reader,
                        entries,
                        policy,
                        w,
                        server.queue(),
                        server.unitsPerQuery(),
                        server.maxDegree(),
                        server.predictor(),
                        configure)
                    .totalHitsThreshold(server.totalHitsThreshold());
          }
        };
    return Sweep.run(
        plan,
        targets,
        entries.size(),
        environment,
        corpus,
        onPoint,
        prober == null ? null : prober::measure);
  }

  private static void warmUp(
      IndexReader reader, List<InProcessTarget.TraceEntry> entries, int workers, int totalHits)
      throws IOException {
    try (Scheduler scheduler =
        Scheduler.builder().policy(Policies.seq()).workers(workers).build()) {
      TailorSearcher searcher = new TailorSearcher(reader, scheduler);
      for (int round = 0; round < WARM_UP_ROUNDS; round++) {
        for (InProcessTarget.TraceEntry e : entries) {
          searcher.search(e.query(), TotalHits.topTen(totalHits));
        }
      }
    }
  }
}
