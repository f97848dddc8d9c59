package dev.tailor.profiler;

import dev.tailor.core.Scheduler;
import dev.tailor.core.policy.Policies;
import dev.tailor.lucene.QueryShape;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.TailorSearchers;
import dev.tailor.lucene.TotalHits;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.RobustTime;
import dev.tailor.measure.UnitWork;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;

/**
 * Measures demand profiles: the time of each query of a trace at every degree from 1 to the
 * machine's cores, with the time of each of its units at degree 1, measured so that a second
 * profile of the same trace gives the same per-query times.
 *
 * <p>Queries are measured in {@linkplain InterleavedRounds interleaved rounds}: after a warm-up
 * that lasts until the JIT compiler has settled, every round times every query once at every
 * degree, in a new order each round, so that whatever the machine does meanwhile falls on all
 * queries alike. A query's time is the {@linkplain RobustTime lower-half mean} of its samples, and
 * its spread is recorded; samples a garbage collection ran into are taken again, and queries whose
 * samples still disagree get further rounds. The profile records the conditions it was taken in:
 * how busy the machine was, the collections and the JIT compilation during the timed rounds.
 *
 * <p>Beyond the cores it derives speedups from the unit times: the units are list-scheduled, in
 * Lucene's claim order, onto {@code d} threads, with the measured serial part and per-unit overhead
 * added. Derived values stay apart from measured ones in the profile.
 *
 * <p>A long trace is measured {@value #CHUNK} queries at a time, and the profile written after each
 * with {@code complete = false}; a rerun with the same output resumes after the queries already
 * there.
 */
public final class DemandProfiler {

  /** Queries measured together in interleaved rounds, then saved: what a rerun resumes after. */
  static final int CHUNK = 1000;

  /**
   * How to profile.
   *
   * @param warmupNanos the least untimed warm-up before the first timed round; warm-up goes on
   *     until round times settle
   * @param rounds timed rounds over all queries: the samples per query and degree
   * @param minSampleNanos a sample of a query shorter than this runs it repeatedly until it lasts
   *     this long (at most {@value InterleavedRounds#MAX_BATCH} times); 0 for one run per sample
   * @param remeasureSpread queries whose degree-1 samples spread more than this ({@link
   *     RobustTime#spread}) get up to {@code rounds} more samples
   * @param measuredDegrees measure degrees 1..this (the machine's cores)
   * @param maxDegree derive degrees above the measured ones up to this
   * @param unitsPerQuery the units each query is cut into
   * @param seed orders the rounds
   * @param totalHitsThreshold each search counts its hits exactly up to this many ({@link
   *     TotalHits#EXACT} for all)
   */
  public record Options(
      long warmupNanos,
      int rounds,
      long minSampleNanos,
      double remeasureSpread,
      int measuredDegrees,
      int maxDegree,
      int unitsPerQuery,
      long seed,
      int totalHitsThreshold) {

    /** Checks the options. */
    public Options {
      if (warmupNanos < 0
          || rounds < 1
          || minSampleNanos < 0
          || !(remeasureSpread >= 0)
          || measuredDegrees < 1
          || unitsPerQuery < 1
          || totalHitsThreshold < 1) {
        throw new IllegalArgumentException(
            "need warmup >= 0, rounds >= 1, min sample >= 0, re-measure spread >= 0,"
                + " measuredDegrees >= 1, unitsPerQuery >= 1, totalHitsThreshold >= 1");
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

  /**
   * Hears progress: {@code done} of about {@code total} searches run (the total grows if warm-up or
   * re-measuring takes more rounds than expected).
   */
  @FunctionalInterface
  public interface Progress {
    void step(long done, long total);
  }

  private final IndexReader reader;
  private final Options options;
  private Path rawSamples;

  /** A profiler of queries on {@code reader}. */
  public DemandProfiler(IndexReader reader, Options options) {
    this.reader = reader;
    this.options = options;
  }

  /**
   * Also writes every sample, one JSON line per query and degree, to {@code file}: for studying
   * where the noise of a profile comes from. Returns this profiler.
   */
  public DemandProfiler rawSamplesTo(Path file) {
    this.rawSamples = file;
    return this;
  }

  /** The settings this profiler records in its profiles. */
  public DemandProfile.Settings settings() {
    return new DemandProfile.Settings(
        DemandProfile.Settings.INTERLEAVED_ROUNDS,
        options.warmupNanos(),
        options.rounds(),
        options.minSampleNanos(),
        options.unitsPerQuery(),
        options.measuredDegrees(),
        options.maxDegree(),
        options.totalHitsThreshold());
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
      progress.step(1, 1);
      return previous;
    }
    List<DemandProfile.Request> done =
        new ArrayList<>(previous != null ? previous.requests() : List.of());
    DemandProfile.Conditions conditions = previous != null ? previous.conditions() : null;
    int degrees = options.measuredDegrees();
    ProgressCount count = new ProgressCount(progress, degrees * (options.rounds() + 1L));
    Scheduler[] schedulers = new Scheduler[degrees];
    try (RawSampleWriter raw = RawSampleWriter.open(rawSamples)) {
      TailorSearcher[] searchers = new TailorSearcher[degrees];
      UnitTimes unitTimes = new UnitTimes();
      Windowing slicing = Windowing.windowsPerQuery(options.unitsPerQuery());
      for (int d = 1; d <= degrees; d++) {
        schedulers[d - 1] = Scheduler.builder().policy(Policies.fixed(d)).workers(degrees).build();
        searchers[d - 1] =
            TailorSearchers.create(reader, schedulers[d - 1], slicing, d == 1 ? unitTimes : null);
      }
      unitTimes.index(searchers[0].getSlices());
      MachineMonitor monitor = new MachineMonitor();
      boolean warm = false;
      while (done.size() < queries.size()) {
        List<ProfiledQuery> chunk =
            queries.subList(done.size(), Math.min(queries.size(), done.size() + CHUNK));
        count.chunk(chunk.size(), queries.size() - done.size() - chunk.size());
        long started = System.nanoTime();
        InterleavedRounds rounds =
            new InterleavedRounds(
                searchers,
                unitTimes,
                monitor,
                chunk.stream().map(ProfiledQuery::query).toList(),
                options.rounds(),
                options.seed() + done.size(),
                options.totalHitsThreshold());
        // The first chunk warms the JIT up; later ones only touch their queries once.
        rounds.run(
            warm ? 0 : options.warmupNanos(),
            options.rounds(),
            options.minSampleNanos(),
            options.remeasureSpread(),
            count);
        warm = true;
        for (int i = 0; i < chunk.size(); i++) {
          QuerySamples samples = rounds.samples(i);
          raw.write(chunk.get(i).id(), samples, degrees);
          done.add(request(chunk.get(i), samples, searchers[0]));
        }
        conditions = combine(conditions, conditions(rounds, System.nanoTime() - started));
        DemandProfile.of(environment, settings(), done.size() == queries.size(), conditions, done)
            .write(out);
      }
    } finally {
      for (Scheduler s : schedulers) {
        if (s != null) {
          s.close();
        }
      }
    }
    count.finish();
    return DemandProfile.of(environment, settings(), true, conditions, done);
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

  /**
   * Counts the searches run against those expected: what the current chunk says it still needs (at
   * first an estimate), plus an estimate for the chunks after it.
   */
  private static final class ProgressCount implements InterleavedRounds.Tick {
    private final Progress progress;
    private final long perQuery;
    private long ran;
    private long current;
    private long later;

    ProgressCount(Progress progress, long perQuery) {
      this.progress = progress;
      this.perQuery = perQuery;
    }

    /** A chunk of {@code queries} starts, with {@code after} queries still to come. */
    void chunk(int queries, int after) {
      current = queries * perQuery;
      later = after * perQuery;
      report();
    }

    @Override
    public void sampled() {
      ran++;
      current = Math.max(0, current - 1);
      if ((ran & 15) == 0) {
        report();
      }
    }

    @Override
    public void remaining(long searches) {
      current = searches;
      report();
    }

    void finish() {
      progress.step(ran, ran);
    }

    private void report() {
      progress.step(ran, ran + current + later + 1);
    }
  }

  private DemandProfile.Request request(
      ProfiledQuery q, QuerySamples samples, TailorSearcher degreeOne) throws IOException {
    int degrees = options.measuredDegrees();
    long[] estimates = new long[degrees];
    double[] spreads = new double[degrees];
    for (int d = 1; d <= degrees; d++) {
      estimates[d - 1] = Math.max(1, Math.round(samples.estimate(d)));
      spreads[d - 1] = samples.spread(d);
    }
    long sequential = estimates[0];
    double[] measured = new double[degrees];
    for (int d = 1; d <= degrees; d++) {
      measured[d - 1] = d == 1 ? 1.0 : (double) sequential / estimates[d - 1];
    }
    long[] units = samples.unitEstimates();
    return new DemandProfile.Request(
        q.id(),
        q.category(),
        q.text(),
        sequential,
        units,
        measured,
        derive(sequential, units, estimates),
        features(degreeOne, q.query()),
        new DemandProfile.Spread(samples.sampleCount(), spreads));
  }

  private static DemandProfile.Conditions conditions(InterleavedRounds rounds, long elapsed) {
    MachineMonitor.Snapshot from = rounds.timedFrom();
    MachineMonitor.Snapshot to = rounds.timedTo();
    return new DemandProfile.Conditions(
        elapsed,
        rounds.warmupRounds(),
        rounds.timedRoundNanos(),
        rounds.remeasured(),
        rounds.gcDiscarded(),
        MachineMonitor.compilationMillis(from, to),
        MachineMonitor.otherShare(from, to),
        MachineMonitor.stealShare(from, to));
  }

  /** The conditions of two stretches of one profile: sums, and shares weighted by timed time. */
  static DemandProfile.Conditions combine(DemandProfile.Conditions a, DemandProfile.Conditions b) {
    if (a == null) {
      return b;
    }
    long[] rounds = new long[a.timedRoundNanos().length + b.timedRoundNanos().length];
    System.arraycopy(a.timedRoundNanos(), 0, rounds, 0, a.timedRoundNanos().length);
    System.arraycopy(
        b.timedRoundNanos(), 0, rounds, a.timedRoundNanos().length, b.timedRoundNanos().length);
    double wa = sum(a.timedRoundNanos());
    double wb = sum(b.timedRoundNanos());
    return new DemandProfile.Conditions(
        a.elapsedNanos() + b.elapsedNanos(),
        a.warmupRounds() + b.warmupRounds(),
        rounds,
        a.remeasuredRequests() + b.remeasuredRequests(),
        a.gcDiscardedSamples() + b.gcDiscardedSamples(),
        a.compilationMillis() < 0 || b.compilationMillis() < 0
            ? -1
            : a.compilationMillis() + b.compilationMillis(),
        weighted(a.otherCpuShare(), wa, b.otherCpuShare(), wb),
        weighted(a.stealShare(), wa, b.stealShare(), wb));
  }

  private static Double weighted(Double a, double wa, Double b, double wb) {
    if (a == null || b == null || wa + wb <= 0) {
      return null;
    }
    return (a * wa + b * wb) / (wa + wb);
  }

  private static double sum(long[] values) {
    double s = 0;
    for (long v : values) {
      s += v;
    }
    return s;
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
}
