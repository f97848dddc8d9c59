package dev.tailor.bench;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.Tuning;
import dev.tailor.core.policy.Policies;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.TailorSearchers;
import dev.tailor.lucene.Windowing;
import dev.tailor.profiler.SearchTimings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.ToDoubleFunction;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;

/**
 * The search benchmarks: a trace's queries on an index, timed on two searchers in the same run
 * ({@link SearchTimings}), reported as ratios of medians. The caller opens the index and parses the
 * trace; these only time and print.
 */
public final class SearchBenches {

  private static final int SLICED_UNITS = 32;

  private static final List<Base> BENCHES =
      List.of(
          new Overhead(), new Speedup(), new WindowSizes(), new PromptClaims(), new LoneSpeedup());

  /** The search benchmarks' names, as {@code ./tailor bench} knows them. */
  public static final List<String> NAMES = BENCHES.stream().map(Base::name).toList();

  /**
   * What a search benchmark runs: the queries, labelled by category, on an open index.
   *
   * @param index the index's directory, named in the report
   * @param trace the trace the queries came from, named in the report
   * @param source the label of the corpus the index was built from
   * @param reader the open index
   * @param queries the queries to time, in trace order
   */
  public record Input(
      Path index,
      Path trace,
      String source,
      IndexReader reader,
      List<SearchTimings.Labelled> queries) {}

  private SearchBenches() {}

  /** How many of the trace's queries to time when the caller sets no limit. */
  public static int defaultLimit(boolean quick) {
    return quick ? 200 : 1_000;
  }

  /**
   * Runs the search benchmark {@code name} (one of {@link #NAMES}) and prints its figures; {@code
   * quick} takes a shorter warm-up and fewer repetitions.
   *
   * @throws IllegalArgumentException if {@code name} is not a search benchmark
   */
  public static void run(String name, Input input, boolean quick, PrintWriter out)
      throws IOException {
    Base bench =
        BENCHES.stream()
            .filter(b -> b.name().equals(name))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "not a search benchmark: " + name + " (known: " + NAMES + ")"));
    bench.run(input, quick ? QUICK_WARMUP : WARMUP, quick ? 3 : 7, out);
    out.flush();
  }

  /** The least warm-up of a comparison; it goes on until the pass times settle. */
  static final Duration WARMUP = Duration.ofSeconds(20);

  static final Duration QUICK_WARMUP = Duration.ofSeconds(5);

  /**
   * One benchmark's run: the index, the queries, the candidate's scheduler and how to compare, for
   * the comparisons a benchmark makes beyond its first.
   */
  record Run(
      IndexReader reader,
      Scheduler scheduler,
      List<SearchTimings.Labelled> queries,
      Duration warmup,
      int repetitions,
      PrintWriter out) {

    /** Times every query on both searchers (warm-up included) and notes the warm-up. */
    List<SearchTimings.Timed> compare(IndexSearcher baseline, IndexSearcher candidate)
        throws IOException {
      SearchTimings.Comparison c =
          SearchTimings.compare(baseline, candidate, queries, warmup, repetitions);
      out.printf("  (%s)%n", c.warmup());
      out.flush();
      return c.timed();
    }
  }

  /** What every search benchmark shares: the two schedulers, the report's header. */
  abstract static class Base {

    abstract String name();

    final void run(Input input, Duration warmup, int repetitions, PrintWriter out)
        throws IOException {
      out.printf(
          "%n%s: %d queries of %s on %s (%s, %d docs), measured on this machine (%d cores);"
              + " medians of %d samples (each at least %d ms: a short query runs several times in"
              + " a row) after at least %d s of warm-up%n",
          name(),
          input.queries().size(),
          input.trace().getFileName(),
          input.index().getFileName(),
          input.source(),
          input.reader().maxDoc(),
          Runtime.getRuntime().availableProcessors(),
          repetitions,
          SearchTimings.MIN_SAMPLE_NANOS / 1_000_000,
          warmup.toSeconds());
      int cores = Math.max(2, Runtime.getRuntime().availableProcessors());
      try (Scheduler a =
              SchedulerInternals.policy(Scheduler.builder(), baselinePolicy())
                  .workers(cores)
                  .tuning(Tuning.defaults().withPromptAdmission(baselinePrompt()))
                  .build();
          Scheduler b =
              SchedulerInternals.policy(Scheduler.builder(), candidatePolicy())
                  .workers(cores)
                  .tuning(Tuning.defaults().withPromptAdmission(candidatePrompt()))
                  .build()) {
        Run run = new Run(input.reader(), b, input.queries(), warmup, repetitions, out);
        List<SearchTimings.Timed> timed =
            run.compare(baseline(input.reader(), a), candidate(input.reader(), b));
        report(timed, run, out);
      }
    }

    String baselinePolicy() {
      return "seq";
    }

    String candidatePolicy() {
      return "seq";
    }

    /** Whether the baseline's scheduler admits promptly (the default, as every scheduler does). */
    boolean baselinePrompt() {
      return true;
    }

    /** Whether the candidate's scheduler admits promptly. */
    boolean candidatePrompt() {
      return true;
    }

    /** What the candidate is compared with: plain Lucene, unless a benchmark says otherwise. */
    IndexSearcher baseline(IndexReader reader, Scheduler scheduler) {
      return new IndexSearcher(reader);
    }

    abstract IndexSearcher candidate(IndexReader reader, Scheduler scheduler);

    /** Prints the figures; {@code run} makes further comparisons where a benchmark needs them. */
    abstract void report(List<SearchTimings.Timed> timed, Run run, PrintWriter out)
        throws IOException;
  }

  /**
   * {@code bench search-overhead}: the drop-in at degree 1 against plain IndexSearcher; beside it,
   * in the same run, the drop-in with one window a query (what the scheduler alone costs) and plain
   * against plain (how far two identical searchers differ here: the noise floor).
   */
  static final class Overhead extends Base {
    static final double GOAL = 1.02;
    static final double CATEGORY_GOAL = 1.05;

    @Override
    String name() {
      return "search-overhead";
    }

    @Override
    IndexSearcher candidate(IndexReader reader, Scheduler scheduler) {
      candidate = new TailorSearcher(reader, scheduler); // the drop-in, as a user gets it
      return candidate;
    }

    private TailorSearcher candidate;

    @Override
    void report(List<SearchTimings.Timed> timed, Run run, PrintWriter out) throws IOException {
      List<SearchTimings.Timed> single =
          run.compare(
              new IndexSearcher(run.reader()),
              TailorSearchers.create(run.reader(), run.scheduler(), Windowing.single()));
      List<SearchTimings.Timed> same =
          run.compare(new IndexSearcher(run.reader()), new IndexSearcher(run.reader()));
      out.printf(
          "  baseline: plain IndexSearcher, no executor; drop-in: TailorSearcher with its default"
              + " slicing (%s: %d windows here), policy seq; one window: the drop-in with one"
              + " window a query, what the scheduler alone costs; plain again: plain against"
              + " plain, the noise floor. Figures: medians of per-query ratios to the baseline%n",
          TailorSearchers.slicing(candidate), candidate.getSlices().length);
      out.printf(
          "  %-16s %7s %14s %14s %9s %11s %11s%n",
          "category",
          "queries",
          "baseline p50",
          "baseline max",
          "drop-in",
          "one window",
          "plain again");
      Map<String, List<Integer>> groups = new TreeMap<>();
      List<Integer> all = new ArrayList<>();
      List<Integer> long1ms = new ArrayList<>();
      for (int i = 0; i < timed.size(); i++) {
        SearchTimings.Timed t = timed.get(i);
        groups
            .computeIfAbsent(t.category() == null ? "-" : t.category(), k -> new ArrayList<>())
            .add(i);
        all.add(i);
        if (t.baselineNanos() >= 1_000_000) {
          long1ms.add(i);
        }
      }
      List<String> missed = new ArrayList<>();
      for (Map.Entry<String, List<Integer>> g : groups.entrySet()) {
        double ratio = row(g.getKey(), g.getValue(), timed, single, same, out);
        if (ratio > CATEGORY_GOAL) {
          missed.add(g.getKey());
        }
      }
      row("all queries", all, timed, single, same, out);
      double ratio =
          long1ms.isEmpty() ? Double.NaN : row("1 ms or more", long1ms, timed, single, same, out);
      out.printf(
          "  queries of 1 ms or more: ratio of summed medians %.3f%n",
          sumRatio(long1ms.stream().map(timed::get).toList()));
      out.printf(
          "  goal: at most %.2f for queries of 1 ms or more -> %s%n",
          GOAL, long1ms.isEmpty() ? "no such query" : ratio <= GOAL ? "met" : "NOT met");
      out.printf(
          "  goal: at most %.2f for every category -> %s%n",
          CATEGORY_GOAL, missed.isEmpty() ? "met" : "NOT met (" + String.join(", ", missed) + ")");
    }

    /** Prints one row; returns the drop-in's median ratio. */
    private static double row(
        String label,
        List<Integer> which,
        List<SearchTimings.Timed> timed,
        List<SearchTimings.Timed> single,
        List<SearchTimings.Timed> same,
        PrintWriter out) {
      List<SearchTimings.Timed> mine = which.stream().map(timed::get).toList();
      double ratio = median(mine, SearchTimings.Timed::ratio);
      out.printf(
          "  %-16s %7d %11.3f ms %11.3f ms %9.3f %11.3f %11.3f%n",
          label,
          which.size(),
          median(mine, t -> t.baselineNanos() / 1e6),
          mine.stream().mapToLong(SearchTimings.Timed::baselineNanos).max().orElse(0) / 1e6,
          ratio,
          median(which.stream().map(single::get).toList(), SearchTimings.Timed::ratio),
          median(which.stream().map(same::get).toList(), SearchTimings.Timed::ratio));
      return ratio;
    }
  }

  /**
   * {@code bench prompt-claims}: what prompt admission's time-sized helper claims cost a search
   * with nothing else to run: degree 2 with prompt admission against degree 2 without, both
   * TailorSearcher with the same windows. A ratio above 1 is the price of the extra claims (each a
   * cursor move, a degree look and, across leaves, a scorer restart) that let an arrival have a
   * helper's thread within about a millisecond.
   */
  static final class PromptClaims extends Base {
    @Override
    String name() {
      return "prompt-claims";
    }

    @Override
    String baselinePolicy() {
      return "fixed:2";
    }

    @Override
    String candidatePolicy() {
      return "fixed:2";
    }

    @Override
    boolean baselinePrompt() {
      return false;
    }

    @Override
    IndexSearcher baseline(IndexReader reader, Scheduler scheduler) {
      return sliced(reader, scheduler);
    }

    @Override
    IndexSearcher candidate(IndexReader reader, Scheduler scheduler) {
      return sliced(reader, scheduler);
    }

    @Override
    void report(List<SearchTimings.Timed> timed, Run run, PrintWriter out) {
      reportFigure(
          timed,
          out,
          "ratio = time at degree 2 with prompt admission / without",
          "ratio",
          SearchTimings.Timed::ratio,
          "%.3f");
    }
  }

  /** {@code bench speedup}: degree 2 against degree 1, all queries and the longest 5%. */
  static final class Speedup extends Base {
    @Override
    String name() {
      return "speedup";
    }

    @Override
    String baselinePolicy() {
      return "fixed:1";
    }

    @Override
    String candidatePolicy() {
      return "fixed:2";
    }

    @Override
    IndexSearcher baseline(IndexReader reader, Scheduler scheduler) {
      return sliced(reader, scheduler);
    }

    @Override
    IndexSearcher candidate(IndexReader reader, Scheduler scheduler) {
      return sliced(reader, scheduler);
    }

    @Override
    void report(List<SearchTimings.Timed> timed, Run run, PrintWriter out) {
      reportFigure(
          timed,
          out,
          "speedup = time at degree 1 / time at degree 2",
          "speedup",
          t -> 1.0 / t.ratio(),
          "%.2f");
    }
  }

  /**
   * {@code bench lone-speedup}: a lone search served, one at a time, by what a user runs: plain
   * Lucene (one thread), the drop-in with the scheduler's defaults ({@value
   * Scheduler#DEFAULT_POLICY}, prompt admission, {@value Scheduler#DEFAULT_SLACK} thread of slack)
   * and Lucene's own executor of one thread per core ({@code new IndexSearcher(reader, executor)}:
   * its slices, the caller running them too). Each speedup is plain Lucene's time over the other's,
   * query by query, both timed in the same interleaved rounds; then the drop-in's time over the
   * executor's, in a third comparison of the same run.
   */
  static final class LoneSpeedup extends Base {
    @Override
    String name() {
      return "lone-speedup";
    }

    @Override
    String candidatePolicy() {
      return Scheduler.DEFAULT_POLICY;
    }

    @Override
    IndexSearcher candidate(IndexReader reader, Scheduler scheduler) {
      return new TailorSearcher(reader, scheduler); // the drop-in, as a user gets it
    }

    @Override
    void report(List<SearchTimings.Timed> timed, Run run, PrintWriter out) throws IOException {
      int cores = Math.max(2, Runtime.getRuntime().availableProcessors());
      ExecutorService pool = Executors.newFixedThreadPool(cores);
      try {
        IndexSearcher executor = new IndexSearcher(run.reader(), pool);
        List<SearchTimings.Timed> lucene = run.compare(new IndexSearcher(run.reader()), executor);
        List<SearchTimings.Timed> versus =
            run.compare(executor, new TailorSearcher(run.reader(), run.scheduler()));
        out.printf(
            "  speedup = plain Lucene's time / the searcher's; drop-in: TailorSearcher, %s on %d"
                + " workers, slack %d; executor: IndexSearcher over a pool of %d threads (%d"
                + " slices here)%n",
            Scheduler.DEFAULT_POLICY,
            cores,
            run.scheduler().tuning().slack(),
            cores,
            executor.getSlices().length);
        ToDoubleFunction<SearchTimings.Timed> speedup = t -> 1.0 / t.ratio();
        List<SearchTimings.Timed> longest = longest(timed);
        List<SearchTimings.Timed> longestLucene = longest(lucene);
        List<SearchTimings.Timed> longestVersus = longest(versus);
        out.printf(
            "  %-28s %9s %9s %18s%n", "queries", "drop-in", "executor", "drop-in / executor");
        ToDoubleFunction<SearchTimings.Timed> ratio = SearchTimings.Timed::ratio;
        row(
            out,
            "all " + timed.size() + ", median",
            median(timed, speedup),
            median(lucene, speedup),
            median(versus, ratio));
        row(
            out,
            "longest 5% (" + longest.size() + "), median",
            median(longest, speedup),
            median(longestLucene, speedup),
            median(longestVersus, ratio));
        row(
            out,
            "longest 5%, summed times",
            1.0 / sumRatio(longest),
            1.0 / sumRatio(longestLucene),
            sumRatio(longestVersus));
      } finally {
        pool.shutdown();
      }
    }

    /**
     * One row: the drop-in's speedup, the executor's, and the drop-in's time over the executor's.
     */
    private static void row(
        PrintWriter out, String label, double dropIn, double executor, double versus) {
      out.printf("  %-28s %9.2f %9.2f %18.3f%n", label, dropIn, executor, versus);
    }
  }

  /**
   * The drop-in searcher on {@value #SLICED_UNITS} windows a query: each side of speedup,
   * prompt-claims.
   */
  private static IndexSearcher sliced(IndexReader reader, Scheduler scheduler) {
    return TailorSearchers.create(reader, scheduler, Windowing.windowsPerQuery(SLICED_UNITS));
  }

  /**
   * Prints one figure per query of a pair benchmark: what it is ({@code heading}), by category, and
   * its median and mean over all queries and over the longest 5%, each in {@code format}.
   */
  private static void reportFigure(
      List<SearchTimings.Timed> timed,
      PrintWriter out,
      String heading,
      String name,
      ToDoubleFunction<SearchTimings.Timed> figure,
      String format) {
    out.printf("  %s, both TailorSearcher with %d units%n", heading, SLICED_UNITS);
    byCategory(timed, out, name, figure);
    List<SearchTimings.Timed> longest = longest(timed);
    String stats = "median " + name + " " + format + ", mean " + format + "%n";
    out.printf(
        "  all %d queries: " + stats, timed.size(), median(timed, figure), mean(timed, figure));
    out.printf(
        "  longest 5%% (%d queries, from %.1f ms): " + stats,
        longest.size(),
        longest.get(longest.size() - 1).baselineNanos() / 1e6,
        median(longest, figure),
        mean(longest, figure));
  }

  /**
   * {@code bench windows}: what the window size trades. Fewer, larger windows cost less at degree
   * 1; more, smaller ones leave work for a helper that arrives late. For each size: the drop-in at
   * degree 1 against plain Lucene, and a helper that arrives after 1 ms ({@code rampup:1ms,2})
   * against none, on the queries long enough for it to matter.
   */
  static final class WindowSizes extends Base {
    static final int[] WINDOWS = {8, 16, 32, 64, 256};
    static final long LATE_NANOS = 1_000_000;

    @Override
    String name() {
      return "windows";
    }

    @Override
    IndexSearcher candidate(IndexReader reader, Scheduler scheduler) {
      return TailorSearchers.create(reader, scheduler, Windowing.single());
    }

    @Override
    void report(List<SearchTimings.Timed> timed, Run run, PrintWriter out) throws IOException {
      out.printf(
          "  degree-1 cost: the drop-in (policy seq) against plain IndexSearcher; late helper:"
              + " rampup:1ms,2 against seq, both the drop-in, on queries of %d ms or more at"
              + " degree 1%n",
          2 * LATE_NANOS / 1_000_000);
      List<String> rows = new ArrayList<>();
      rows.add(
          String.format(
              "  %-18s %22.3f %24s %28s",
              "1", median(atLeast(timed, LATE_NANOS), SearchTimings.Timed::ratio), "-", "-"));
      int cores = Math.max(2, Runtime.getRuntime().availableProcessors());
      IndexReader reader = run.reader();
      try (Scheduler late =
          Scheduler.builder()
              .policy(Policies.rampUp(Duration.ofMillis(1), 2))
              .workers(cores)
              .build()) {
        for (int windows : WINDOWS) {
          Windowing slicing = Windowing.windowsPerQuery(windows);
          TailorSearcher alone = TailorSearchers.create(reader, run.scheduler(), slicing);
          List<SearchTimings.Timed> cost = run.compare(new IndexSearcher(reader), alone);
          List<SearchTimings.Timed> gain =
              atLeast(
                  run.compare(alone, TailorSearchers.create(reader, late, slicing)),
                  2 * LATE_NANOS);
          ToDoubleFunction<SearchTimings.Timed> speedup = t -> 1.0 / t.ratio();
          rows.add(
              String.format(
                  "  %-18s %22.3f %24.2f %28.2f",
                  windows + " (" + alone.getSlices().length + " here)",
                  median(atLeast(cost, LATE_NANOS), SearchTimings.Timed::ratio),
                  median(gain, speedup),
                  median(longest(gain), speedup)));
        }
      }
      out.printf(
          "  %-18s %22s %24s %28s%n",
          "windows per query",
          "degree-1 cost (>=1 ms)",
          "late helper: median gain",
          "late helper: longest 5% gain");
      rows.forEach(out::println);
    }
  }

  /** Prints a row per category: count, median baseline time, median of the figure. */
  static Map<String, List<SearchTimings.Timed>> byCategory(
      List<SearchTimings.Timed> timed,
      PrintWriter out,
      String figure,
      ToDoubleFunction<SearchTimings.Timed> f) {
    Map<String, List<SearchTimings.Timed>> groups = new TreeMap<>();
    for (SearchTimings.Timed t : timed) {
      groups
          .computeIfAbsent(t.category() == null ? "-" : t.category(), k -> new ArrayList<>())
          .add(t);
    }
    out.printf(
        "  %-16s %7s %14s %14s %18s%n",
        "category", "queries", "baseline p50", "baseline max", "median " + figure);
    groups.forEach(
        (category, list) ->
            out.printf(
                "  %-16s %7d %11.2f ms %11.2f ms %18.3f%n",
                category,
                list.size(),
                median(list, t -> t.baselineNanos() / 1e6),
                list.stream().mapToLong(SearchTimings.Timed::baselineNanos).max().orElse(0) / 1e6,
                median(list, f)));
    return groups;
  }

  /** The longest 5% by baseline time, longest first (at least one). */
  static List<SearchTimings.Timed> longest(List<SearchTimings.Timed> timed) {
    List<SearchTimings.Timed> sorted = new ArrayList<>(timed);
    sorted.sort(Comparator.comparingLong(SearchTimings.Timed::baselineNanos).reversed());
    return sorted.subList(0, Math.min(sorted.size(), Math.max(1, sorted.size() / 20)));
  }

  static List<SearchTimings.Timed> atLeast(List<SearchTimings.Timed> timed, long nanos) {
    return timed.stream().filter(t -> t.baselineNanos() >= nanos).toList();
  }

  static double median(List<SearchTimings.Timed> timed, ToDoubleFunction<SearchTimings.Timed> f) {
    if (timed.isEmpty()) {
      return Double.NaN;
    }
    double[] v = timed.stream().mapToDouble(f).toArray();
    Arrays.sort(v);
    return v[v.length / 2];
  }

  static double mean(List<SearchTimings.Timed> timed, ToDoubleFunction<SearchTimings.Timed> f) {
    return timed.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  static double sumRatio(List<SearchTimings.Timed> timed) {
    long a = 0;
    long b = 0;
    for (SearchTimings.Timed t : timed) {
      a += t.baselineNanos();
      b += t.candidateNanos();
    }
    return a == 0 ? Double.NaN : (double) b / a;
  }
}
