package dev.tailor.load;

import dev.tailor.core.Predictor;
import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.Tuning;
import dev.tailor.core.metrics.RequestGroups;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.model.SpeedupCurve;
import dev.tailor.core.policy.DegreeCap;
import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.RequestView;
import dev.tailor.lucene.TailorSearcher;
import dev.tailor.lucene.TailorSearchers;
import dev.tailor.lucene.TotalHits;
import dev.tailor.lucene.Windowing;
import dev.tailor.measure.CoRun;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.Failures;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.UnaryOperator;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/**
 * A {@link Scheduler} with the drop-in searcher over an index, in this process: each request is a
 * top-10 search submitted to the scheduler's pool, labelled with the query's category and carrying
 * what the profile knows of it (its sequential time and speedup curve) as its prediction. The
 * policy may be capped ({@link DegreeCap}); the target creates it and closes it when it closes.
 */
public final class InProcessTarget implements Target {

  /**
   * A query of the trace.
   *
   * @param category its category, or null
   * @param query the parsed query
   * @param profiledNanos its sequential time in the replay's profile, or {@link
   *     RequestView#UNKNOWN}: told to a {@linkplain Policy#clairvoyant() clairvoyant} policy only
   * @param profiledSpeedup its speedup curve in the profile, or null: likewise
   */
  public record TraceEntry(
      String category, Query query, long profiledNanos, SpeedupCurve profiledSpeedup) {

    /** An entry without a speedup curve. */
    public TraceEntry(String category, Query query, long profiledNanos) {
      this(category, query, profiledNanos, null);
    }
  }

  private final Policy policy;
  private final Predictor<Query> predictor;
  private final RequestGroups classes;
  private final Scheduler scheduler;
  private final TailorSearcher searcher;
  private final List<TraceEntry> queries;
  private volatile Measured measured;
  private int totalHitsThreshold = DemandProfile.Settings.DEFAULT_TOTAL_HITS_THRESHOLD;

  private record Measured(long fromNanos, RunMetrics metrics) {}

  /**
   * The searches whose bodies have run and whose records have not come yet, by request id: the
   * listener hands each its record before the request's future completes, so the replayer finds the
   * server's timings in the answer.
   */
  private final ConcurrentHashMap<Long, Answer> running = new ConcurrentHashMap<>();

  /**
   * A search's answer: the record the scheduler made of it, once it completed, and its hits (set
   * before the future completes with it).
   */
  private static final class Answer {
    volatile RequestRecord record;
    TopDocs topDocs;
    long profiledNanos = RequestView.UNKNOWN; // the query's profiled sequential time
  }

  /**
   * A target running {@code policy} on {@code workers} threads, its degrees capped, with the
   * scheduler's builder passed through {@code configure} last, for settings the target has no
   * parameter for (an elastic budget, a spin).
   *
   * @param queueCapacity the admission queue's limit; beyond it requests fail at once
   * @param maxDegree the degree cap ({@link DegreeCap}), or 0 for none
   * @param predictor what predicts each query's sequential time as it is sent, or null for no
   *     prediction
   * @param configure applied to the scheduler's builder last; {@link UnaryOperator#identity()} for
   *     none
   * @throws IllegalArgumentException if the policy's specification is bad or the cap negative
   */
  public InProcessTarget(
      IndexReader reader,
      List<TraceEntry> queries,
      String policy,
      int workers,
      int queueCapacity,
      int unitsPerQuery,
      int maxDegree,
      Predictor<Query> predictor,
      UnaryOperator<Scheduler.Builder> configure) {
    if (maxDegree < 0) {
      throw new IllegalArgumentException("the degree cap must be >= 1 or 0 (none)");
    }
    this.queries = List.copyOf(queries);
    this.predictor = predictor;
    // Table 2's classes (Jeon et al., ASPLOS'16), scaled to the profiled times where known.
    this.classes =
        RequestGroups.tpcScaled(
            queries.stream()
                .mapToLong(TraceEntry::profiledNanos)
                .filter(t -> t != RequestView.UNKNOWN)
                .toArray());
    Policy created = PolicyRegistry.of(policy);
    this.policy = maxDegree > 0 ? DegreeCap.of(created, maxDegree) : created;
    try {
      this.scheduler = configure.apply(builder(this.policy, workers, queueCapacity)).build();
    } catch (RuntimeException e) {
      this.policy.close();
      throw e;
    }
    this.searcher =
        TailorSearchers.create(reader, scheduler, Windowing.windowsPerQuery(unitsPerQuery));
  }

  private Scheduler.Builder builder(Policy policy, int workers, int queueCapacity) {
    return Scheduler.builder()
        .policy(policy)
        .workers(workers)
        .tuning(Tuning.defaults().withQueueCapacity(queueCapacity))
        .listener(
            new SchedulerListener() {
              @Override
              public void requestCompleted(RequestRecord record) {
                Answer a = running.remove(record.id());
                if (a != null) {
                  a.record = record;
                }
                Measured m = measured;
                if (m != null && record.arrivalNanos() - m.fromNanos() >= 0) {
                  m.metrics().record(record);
                }
              }
            });
  }

  /**
   * Makes every search count its hits exactly up to {@code threshold} ({@link TotalHits#EXACT} for
   * all), as the profile of the replayed queries did; call before the first {@link #send}. Returns
   * this target.
   */
  InProcessTarget totalHitsThreshold(int threshold) {
    this.totalHitsThreshold = threshold;
    return this;
  }

  /** The scheduler the searches run on. */
  public Scheduler scheduler() {
    return scheduler;
  }

  /**
   * Submits a search; a full admission queue fails its future at once with a {@link
   * RequestFailedException} of kind {@link Failures.Kind#REJECTED}, and a search that throws fails
   * it with what it threw, which counts as {@link Failures.Kind#ERROR}.
   */
  @Override
  public CompletableFuture<?> send(int query) {
    TraceEntry entry = queries.get(query % queries.size());
    try {
      Answer answer = new Answer();
      answer.profiledNanos = entry.profiledNanos();
      return SchedulerInternals.submit(
              scheduler,
              ctx -> {
                running.put(ctx.view().id(), answer);
                return searcher.search(entry.query(), TotalHits.topTen(totalHitsThreshold));
              },
              attributes(entry))
          .thenApply(
              topDocs -> {
                answer.topDocs = topDocs;
                return answer;
              });
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(
          new RequestFailedException(Failures.Kind.REJECTED, e.getMessage(), e));
    }
  }

  /**
   * What the request carries: for a clairvoyant policy the profile's time and curve; for any other
   * the predictor's estimate, made here on the sending thread before the request arrives (so its
   * cost, which {@code tailor bench predictor} reports, is not in the request's latency).
   */
  private RequestAttributes attributes(TraceEntry entry) {
    if (policy.clairvoyant()) {
      return new RequestAttributes(
          entry.category(), entry.profiledNanos(), entry.profiledSpeedup());
    }
    long predicted =
        predictor == null ? RequestView.UNKNOWN : predictor.predictSequentialNanos(entry.query());
    return new RequestAttributes(entry.category(), predicted);
  }

  /** Searches that ran and whose record has not come yet: none once every answer came. */
  int awaitingRecords() {
    return running.size();
  }

  /** The top 10 of the search answered with {@code answer}, for tests. */
  static TopDocs topDocs(Object answer) {
    return ((Answer) answer).topDocs;
  }

  /** The scheduler's record of the search answered with {@code answer}. */
  @Override
  public ServerTiming timing(Object answer) {
    RequestRecord r = answer instanceof Answer a ? a.record : null;
    return r == null ? null : new ServerTiming(r.queueingNanos(), r.dispatchNanos(), r.runNanos());
  }

  /** The scheduler's record of the search answered with {@code answer}, with its profiled time. */
  @Override
  public CoRun.Span span(Object answer) {
    if (!(answer instanceof Answer a) || a.record == null) {
      return null;
    }
    RequestRecord r = a.record;
    return new CoRun.Span(r.firstRunNanos(), r.endNanos(), r.maxThreads(), a.profiledNanos);
  }

  @Override
  public RunMetrics measureFrom(long nanoTime) {
    RunMetrics metrics = new RunMetrics(classes);
    measured = new Measured(nanoTime, metrics);
    return metrics;
  }

  @Override
  public String policy() {
    return scheduler.policy().spec();
  }

  @Override
  public void close() {
    try {
      scheduler.shutdownNow();
      scheduler.close();
    } finally {
      policy.close(); // handed to the scheduler as an object, so the scheduler does not close it
    }
  }
}
