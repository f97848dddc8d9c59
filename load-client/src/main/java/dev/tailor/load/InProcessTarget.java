package dev.tailor.load;

import dev.tailor.core.RequestAttributes;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.metrics.RequestClasses;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.metrics.RunMetrics;
import dev.tailor.core.policy.RequestView;
import dev.tailor.lucene.Slicing;
import dev.tailor.lucene.TailorSearcher;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * A {@link Scheduler} with the drop-in searcher over an index, in this process: each request is a
 * top-10 search submitted to the scheduler's pool, labelled with the query's category.
 */
public final class InProcessTarget implements Target {

  /**
   * A query of the trace.
   *
   * @param category its category, or null
   * @param query the parsed query
   * @param predictedNanos its predicted (or, for the clairvoyant {@code rc}, profiled) sequential
   *     time, or {@link RequestView#UNKNOWN}
   */
  public record TraceEntry(String category, Query query, long predictedNanos) {}

  private final Scheduler scheduler;
  private final TailorSearcher searcher;
  private final List<TraceEntry> queries;
  private volatile Measured measured;

  private record Measured(long fromNanos, RunMetrics metrics) {}

  /**
   * A target running {@code policy} on {@code workers} threads.
   *
   * @param queueCapacity the admission queue's limit; beyond it requests fail at once
   */
  public InProcessTarget(
      IndexReader reader,
      List<TraceEntry> queries,
      String policy,
      int workers,
      int queueCapacity,
      int unitsPerQuery) {
    this.queries = List.copyOf(queries);
    this.scheduler =
        Scheduler.builder()
            .policy(policy)
            .workers(workers)
            .queueCapacity(queueCapacity)
            .listener(
                new SchedulerListener() {
                  @Override
                  public void requestCompleted(RequestRecord record) {
                    Measured m = measured;
                    if (m != null && record.arrivalNanos() - m.fromNanos() >= 0) {
                      m.metrics().record(record);
                    }
                  }
                })
            .build();
    this.searcher = new TailorSearcher(reader, scheduler, Slicing.unitsPerQuery(unitsPerQuery));
  }

  @Override
  public CompletableFuture<?> send(int query) {
    TraceEntry entry = queries.get(query % queries.size());
    try {
      return scheduler.submit(
          ctx -> searcher.search(entry.query(), new TopScoreDocCollectorManager(10, 1000)),
          new RequestAttributes(entry.category(), entry.predictedNanos()));
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public RunMetrics measureFrom(long nanoTime) {
    RunMetrics metrics = new RunMetrics(RequestClasses.tpcDefault());
    measured = new Measured(nanoTime, metrics);
    return metrics;
  }

  @Override
  public String policy() {
    return scheduler.policy().spec();
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    scheduler.close();
  }
}
