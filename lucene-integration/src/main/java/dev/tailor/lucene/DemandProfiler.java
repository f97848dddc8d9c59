package dev.tailor.lucene;

import dev.tailor.core.Scheduler;
import dev.tailor.core.model.DemandProfile;
import dev.tailor.core.model.UnitWork;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.IndexSearcher.LeafReaderContextPartition;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * Measures demand profiles: each query of a trace in isolation, after one untimed pass over them
 * all, with warm-up and repetitions, at every degree from 1 to the machine's cores (the median of
 * the repetitions), with the time of each of its units at degree 1. Beyond the cores it derives
 * speedups from the unit times: the units are list-scheduled, in Lucene's claim order, onto {@code
 * d} threads, with the measured serial part and per-unit overhead added. Derived values stay apart
 * from measured ones in the profile.
 *
 * <p>The profile is written after every {@value #SAVE_EVERY} queries with {@code complete = false};
 * a rerun with the same output resumes after the queries already there.
 */
public final class DemandProfiler {

  static final int SAVE_EVERY = 10;

  /**
   * How to profile.
   *
   * @param warmups untimed runs per query and degree
   * @param repetitions timed runs per query and degree
   * @param measuredDegrees measure degrees 1..this (the machine's cores)
   * @param maxDegree derive degrees above the measured ones up to this
   * @param unitsPerQuery the units each query is cut into
   */
  public record Options(
      int warmups, int repetitions, int measuredDegrees, int maxDegree, int unitsPerQuery) {

    /** Checks the options. */
    public Options {
      if (warmups < 0 || repetitions < 1 || measuredDegrees < 1 || unitsPerQuery < 1) {
        throw new IllegalArgumentException(
            "need warmups >= 0, repetitions >= 1, measuredDegrees >= 1, unitsPerQuery >= 1");
      }
      if (maxDegree < measuredDegrees) {
        throw new IllegalArgumentException(
            "maxDegree " + maxDegree + " is below the measured degrees " + measuredDegrees);
      }
    }
  }

  /**
   * A query to profile.
   *
   * @param id its id in the trace
   * @param category its category, or null
   * @param text the query as the trace gave it
   * @param query the parsed query
   */
  public record ProfiledQuery(String id, String category, String text, Query query) {}

  /** Hears progress: {@code done} of {@code total} queries measured. */
  @FunctionalInterface
  public interface Progress {
    void step(int done, int total);
  }

  private final IndexReader reader;
  private final Options options;

  /** A profiler of queries on {@code reader}. */
  public DemandProfiler(IndexReader reader, Options options) {
    this.reader = reader;
    this.options = options;
  }

  /** The settings this profiler records in its profiles. */
  public DemandProfile.Settings settings() {
    return new DemandProfile.Settings(
        options.repetitions(),
        options.unitsPerQuery(),
        options.measuredDegrees(),
        options.maxDegree());
  }

  /**
   * Profiles the queries, writing the profile to {@code out} as it goes. If {@code out} holds a
   * partial profile taken with the same settings, the queries already in it are kept and skipped.
   *
   * @throws IOException if searching or writing fails, or {@code out} holds a profile taken with
   *     other settings
   */
  public DemandProfile profile(
      List<ProfiledQuery> queries,
      DemandProfile.Environment environment,
      Path out,
      Progress progress)
      throws IOException {
    DemandProfile previous = resumable(out, queries);
    if (previous != null && previous.complete() && previous.requests().size() == queries.size()) {
      // Complete already: left as it is, so that tables built from it still match its digest.
      progress.step(queries.size(), queries.size());
      return previous;
    }
    List<DemandProfile.Request> done =
        new ArrayList<>(previous != null ? previous.requests() : List.of());
    progress.step(done.size(), queries.size());
    Scheduler[] schedulers = new Scheduler[options.measuredDegrees()];
    try {
      TailorSearcher[] searchers = new TailorSearcher[options.measuredDegrees()];
      UnitTimes unitTimes = new UnitTimes();
      Slicing slicing = Slicing.unitsPerQuery(options.unitsPerQuery());
      for (int d = 1; d <= options.measuredDegrees(); d++) {
        schedulers[d - 1] =
            Scheduler.builder().policy("fixed:" + d).workers(options.measuredDegrees()).build();
        searchers[d - 1] =
            new TailorSearcher(reader, schedulers[d - 1], slicing, d == 1 ? unitTimes : null);
      }
      unitTimes.index(searchers[0].getSlices());
      // One untimed pass over every query at every degree first: a query profiled early must not
      // pay for the JIT compiler and cold caches that later ones do not see.
      for (int i = done.size(); i < queries.size(); i++) {
        for (TailorSearcher searcher : searchers) {
          run(searcher, queries.get(i).query());
        }
      }
      for (int i = done.size(); i < queries.size(); i++) {
        done.add(measure(queries.get(i), searchers, unitTimes));
        if (done.size() % SAVE_EVERY == 0) {
          DemandProfile.of(environment, settings(), false, done).write(out);
        }
        progress.step(done.size(), queries.size());
      }
    } finally {
      for (Scheduler s : schedulers) {
        if (s != null) {
          s.close();
        }
      }
    }
    DemandProfile profile = DemandProfile.of(environment, settings(), true, done);
    profile.write(out);
    return profile;
  }

  /**
   * The profile at {@code out} to resume from, or null if there is none: it must have been taken
   * with the same settings on the same queries, in order.
   */
  private DemandProfile resumable(Path out, List<ProfiledQuery> queries) throws IOException {
    if (!Files.exists(out)) {
      return null;
    }
    DemandProfile previous = DemandProfile.read(out);
    List<DemandProfile.Request> measured = previous.requests();
    for (int i = 0; i < measured.size(); i++) {
      if (i >= queries.size()
          || !measured.get(i).id().equals(queries.get(i).id())
          || !measured.get(i).query().equals(queries.get(i).text())) {
        throw new IOException(
            out
                + ": requests["
                + i
                + "] is not the trace's query "
                + (i + 1)
                + ": the profile was taken on another trace; remove it or choose another --out");
      }
    }
    if (!previous.settings().equals(settings())) {
      throw new IOException(
          out
              + ": holds a profile taken with "
              + previous.settings()
              + ", not "
              + settings()
              + "; remove it or choose another --out");
    }
    return previous;
  }

  private DemandProfile.Request measure(
      ProfiledQuery q, TailorSearcher[] searchers, UnitTimes unitTimes) throws IOException {
    int degrees = searchers.length;
    long[] medians = new long[degrees];
    long[][] unitRuns = new long[options.repetitions()][];
    for (int d = 1; d <= degrees; d++) {
      TailorSearcher searcher = searchers[d - 1];
      for (int w = 0; w < options.warmups(); w++) {
        run(searcher, q.query());
      }
      long[] times = new long[options.repetitions()];
      for (int r = 0; r < times.length; r++) {
        if (d == 1) {
          unitTimes.reset();
        }
        times[r] = run(searcher, q.query());
        if (d == 1) {
          unitRuns[r] = unitTimes.snapshot();
        }
      }
      medians[d - 1] = SearchTimings.median(times);
    }
    long sequential = Math.max(1, medians[0]);
    long[] units = medianPerUnit(unitRuns);
    double[] measured = new double[degrees];
    for (int d = 1; d <= degrees; d++) {
      measured[d - 1] = d == 1 ? 1.0 : (double) sequential / Math.max(1, medians[d - 1]);
    }
    double[] derived = derive(sequential, units, medians);
    return new DemandProfile.Request(
        q.id(),
        q.category(),
        q.text(),
        sequential,
        units,
        measured,
        derived,
        features(searchers[0], q.query()));
  }

  private static long run(IndexSearcher searcher, Query query) throws IOException {
    long start = System.nanoTime();
    searcher.search(query, new TopScoreDocCollectorManager(10, 1000));
    return System.nanoTime() - start;
  }

  /**
   * Speedups beyond the measured degrees: the serial part (the time outside units) plus the unit
   * times, each with the per-unit overhead measured at the highest measured degree, list-scheduled
   * onto {@code d} threads ({@link UnitWork}).
   */
  double[] derive(long sequential, long[] units, long[] measuredMedians) {
    int measuredDegrees = measuredMedians.length;
    double[] derived = new double[options.maxDegree() - measuredDegrees];
    if (units.length == 0) {
      Arrays.fill(derived, 1.0);
      return derived;
    }
    double[] measured = new double[measuredDegrees];
    for (int d = 0; d < measuredDegrees; d++) {
      measured[d] = measuredMedians[d];
    }
    UnitWork work = UnitWork.of(sequential, units, measured);
    for (int i = 0; i < derived.length; i++) {
      double time = work.nanosOn(measuredDegrees + 1 + i);
      derived[i] = Math.max(1.0, sequential / Math.max(1.0, time));
    }
    return derived;
  }

  private static long[] medianPerUnit(long[][] runs) {
    int units = runs[0].length;
    long[] out = new long[units];
    long[] column = new long[runs.length];
    for (int u = 0; u < units; u++) {
      for (int r = 0; r < runs.length; r++) {
        column[r] = runs[r][u];
      }
      out[u] = SearchTimings.median(column);
    }
    return out;
  }

  /** Document frequencies of the terms the rewritten query reads, and its leaf clauses. */
  private DemandProfile.Features features(IndexSearcher searcher, Query query) throws IOException {
    QueryShape shape = QueryShape.of(searcher.rewrite(query));
    long[] dfs = new long[shape.terms().size()];
    long total = 0;
    for (int i = 0; i < dfs.length; i++) {
      dfs[i] = reader.docFreq(shape.terms().get(i));
      total += dfs[i];
    }
    return new DemandProfile.Features(
        query.getClass().getSimpleName(), shape.clauses(), dfs, total);
  }

  /** Collects the time of each unit of one search at degree 1, by slice. */
  private static final class UnitTimes implements UnitListener {
    private final Map<LeafReaderContextPartition[], Integer> sliceIndex = new IdentityHashMap<>();
    private long[] times = new long[0];

    void index(IndexSearcher.LeafSlice[] slices) {
      for (int i = 0; i < slices.length; i++) {
        sliceIndex.put(slices[i].partitions, i);
      }
      times = new long[slices.length];
    }

    synchronized void reset() {
      Arrays.fill(times, 0);
    }

    synchronized long[] snapshot() {
      return times.clone();
    }

    @Override
    public synchronized void unitSearched(LeafReaderContextPartition[] partitions, long nanos) {
      Integer i = sliceIndex.get(partitions);
      if (i != null) {
        times[i] += nanos;
      }
    }
  }
}
