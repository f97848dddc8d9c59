package dev.tailor.bench;

import dev.tailor.core.BackgroundCores;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.core.policy.Policies;
import dev.tailor.core.policy.RequestView;
import dev.tailor.corpora.linedocs.LineDocsFeed;
import dev.tailor.load.InProcessTarget;
import dev.tailor.load.OpenLoopReplayer;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.Median;
import dev.tailor.measure.PointResult;
import dev.tailor.profiler.BackgroundIndexing;
import dev.tailor.sim.arrival.PointPlan;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * {@code bench share}: search under open-loop load while indexing runs in the same JVM, on this
 * machine's two cores. Search runs the drop-in with the {@code seq} policy; indexing adds the
 * corpus's documents to a second, in-memory index in chunks of {@value #CHUNK_DOCS}. Five ways to
 * share the cores, run in interleaved rounds at the same arrivals:
 *
 * <ul>
 *   <li>{@code search-only}: two search workers, no indexing (the reference P99);
 *   <li>{@code static-split}: one search worker, one indexing thread always;
 *   <li>{@code static-2+index}: two search workers and one indexing thread, the OS sharing the
 *       cores (what a deployment gets without a budget);
 *   <li>{@code utilization-range} and {@code delay-range}: two search workers under an elastic
 *       budget of at least one (McClure et al., NSDI'22), indexing on the cores it returns.
 * </ul>
 *
 * It prints, per load, each way's search P50 and P99 and documents indexed per second, medians over
 * the rounds, and their ratios to the static split's in the same rounds.
 */
public final class ShareBench {

  /** The name {@code ./tailor bench} knows it by. */
  public static final String NAME = "share";

  static final int CHUNK_DOCS = 50;
  private static final int CORES = 2;

  /** One way of sharing the cores. */
  record Way(String name, int searchWorkers, String budget, boolean dedicatedIndexer) {
    boolean indexes() {
      return dedicatedIndexer || budget != null;
    }
  }

  static final List<Way> WAYS =
      List.of(
          new Way("search-only", CORES, null, false),
          new Way("static-split", 1, null, true),
          new Way("static-2+index", CORES, null, true),
          new Way("utilization-range", CORES, "utilization-range", false),
          new Way("delay-range", CORES, "delay-range", false));

  private static final String BASELINE = "static-split";

  private ShareBench() {}

  /** One run's figures. */
  record Run(double p50Nanos, double p99Nanos, long failed, double docsPerSecond, double threads) {}

  /**
   * Runs the benchmark.
   *
   * @param docs line documents to index (the corpus the index was built from, or any other)
   */
  public static void run(SearchBenches.Input input, Path docs, boolean quick, PrintWriter out)
      throws IOException, InterruptedException {
    List<InProcessTarget.TraceEntry> entries = new ArrayList<>();
    for (var q : input.queries()) {
      entries.add(new InProcessTarget.TraceEntry(q.category(), q.query(), RequestView.UNKNOWN));
    }
    double meanNanos = warmUpAndTime(input, entries);
    int rounds = quick ? 1 : 3;
    int requests = quick ? 600 : 2_000;
    double[] utilizations = quick ? new double[] {0.25} : new double[] {0.15, 0.3};
    out.printf(
        Locale.ROOT,
        "bench share: %s, %d queries of %s (mean %.2f ms alone), %d requests a run, %d"
            + " interleaved round(s); indexing %s in chunks of %d documents into memory%n",
        input.index(),
        entries.size(),
        input.trace(),
        meanNanos / 1e6,
        requests,
        rounds,
        docs,
        CHUNK_DOCS);
    out.flush();
    try (LineDocsFeed feed = new LineDocsFeed(docs)) {
      for (double u : utilizations) {
        double rps = u * CORES * 1e9 / meanNanos;
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        WAYS.forEach(w -> runs.put(w.name(), new ArrayList<>()));
        for (int round = 0; round < rounds; round++) {
          PointPlan plan =
              SweepPlan.counted("poisson", 1 + round, requests).point(rps, entries.size());
          for (int i = 0; i < WAYS.size(); i++) {
            Way way = WAYS.get((i + round) % WAYS.size()); // rotate who goes first
            runs.get(way.name()).add(runOnce(input, entries, way, plan, rps, feed));
          }
        }
        report(out, u, rps, runs);
      }
    }
  }

  /** Runs every query a few times alone; returns the mean time of the last round. */
  private static double warmUpAndTime(
      SearchBenches.Input input, List<InProcessTarget.TraceEntry> entries) throws IOException {
    try (Scheduler scheduler = Scheduler.builder().policy(Policies.seq()).workers(CORES).build()) {
      TailorSearcher searcher = new TailorSearcher(input.reader(), scheduler);
      long total = 0;
      for (int round = 0; round < 3; round++) {
        long start = System.nanoTime();
        for (InProcessTarget.TraceEntry e : entries) {
          searcher.search(e.query(), 10);
        }
        total = System.nanoTime() - start;
      }
      return (double) total / entries.size();
    }
  }

  private static Run runOnce(
      SearchBenches.Input input,
      List<InProcessTarget.TraceEntry> entries,
      Way way,
      PointPlan plan,
      double rps,
      LineDocsFeed feed)
      throws IOException, InterruptedException {
    try (InProcessTarget target =
            new InProcessTarget(
                input.reader(),
                entries,
                "seq",
                way.searchWorkers(),
                10_000,
                Windowing.DEFAULT_WINDOWS_PER_THREAD * way.searchWorkers(),
                0,
                null,
                b ->
                    way.budget() == null
                        ? b
                        : SchedulerInternals.elasticBudget(
                            b, BudgetPolicy.of(way.budget()), 1, Duration.ofMillis(1)));
        Indexing indexing = new Indexing(feed)) {
      if (way.dedicatedIndexer()) {
        indexing.start(1, null);
      } else if (way.budget() != null) {
        indexing.start(CORES, SchedulerInternals.backgroundCores(target.scheduler()));
      }
      long start = System.nanoTime();
      PointResult r =
          OpenLoopReplayer.run(
              target,
              plan.offsetsNanos(),
              plan.order(),
              new OpenLoopReplayer.Settings(
                  plan.measureFromNanos(), 5_000, TimeUnit.SECONDS.toNanos(30), List.of()),
              new OpenLoopReplayer.Labels(rps, "poisson", 1, "this machine", input.source()));
      double seconds = (System.nanoTime() - start) / 1e9;
      long indexed = indexing.stop();
      return new Run(
          r.latencyAt("p50"),
          r.latencyAt("p99"),
          r.failed(),
          indexed / seconds,
          SchedulerInternals.meanBudget(target.scheduler()));
    }
  }

  private static void report(PrintWriter out, double u, double rps, Map<String, List<Run>> runs) {
    out.printf(
        Locale.ROOT,
        "%n## utilization %.2f of %d cores: %.0f searches/s%n%n"
            + "| way | search P50 ms | search P99 ms | P99 / static-split | docs/s |"
            + " docs/s / static-split | search threads | failed |%n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|%n",
        u,
        CORES,
        rps);
    double baseP99 = median(runs.get(BASELINE), Run::p99Nanos);
    double baseDocs = median(runs.get(BASELINE), Run::docsPerSecond);
    for (Way w : WAYS) {
      List<Run> rs = runs.get(w.name());
      double p99 = median(rs, Run::p99Nanos);
      double docs = median(rs, Run::docsPerSecond);
      out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %.2f | %,.0f | %s | %.2f | %d |%n",
          w.name(),
          median(rs, Run::p50Nanos) / 1e6,
          p99 / 1e6,
          p99 / baseP99,
          docs,
          w.indexes() ? String.format(Locale.ROOT, "%.2f", docs / baseDocs) : "-",
          median(rs, Run::threads),
          rs.stream().mapToLong(Run::failed).sum());
    }
    out.println(
        "Medians over the rounds; each round ran every way at the same arrivals, in rotated"
            + " order. search threads: the budget's time average (the workers when static).");
    out.flush();
  }

  private static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> f) {
    return Median.of(runs.stream().mapToDouble(f).toArray());
  }

  /** A fresh in-memory index fed from {@code feed}, paced by {@link BackgroundIndexing}. */
  private static final class Indexing implements AutoCloseable {
    private final IndexWriter writer;
    private final BackgroundIndexing background;

    Indexing(LineDocsFeed feed) throws IOException {
      IndexWriterConfig config =
          new IndexWriterConfig(new StandardAnalyzer())
              .setRAMBufferSizeMB(16)
              // Merges would run outside any chunk, or make one chunk last seconds: flushes only.
              .setMergePolicy(NoMergePolicy.INSTANCE)
              .setMergeScheduler(new SerialMergeScheduler());
      this.writer = new IndexWriter(new ByteBuffersDirectory(), config);
      this.background = new BackgroundIndexing(writer, feed::next, CHUNK_DOCS);
    }

    void start(int threads, BackgroundCores cores) {
      if (cores == null) {
        background.startDedicated(threads);
      } else {
        background.startOnBackgroundCores(cores, threads);
      }
    }

    /** Stops indexing; returns the documents indexed. */
    long stop() throws InterruptedException {
      long n = background.stop();
      if (background.failure() != null) {
        throw new IllegalStateException("background indexing failed", background.failure());
      }
      return n;
    }

    @Override
    public void close() throws IOException {
      background.close();
      writer.rollback();
    }
  }
}
