package dev.tailor.profiler;

import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.corpora.linedocs.LineDocsFeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * A file of line documents indexed beside search: into a second, in-memory index that is thrown
 * away, in chunks of {@value #CHUNK_DOCS} documents on the cores a scheduler's elastic budget
 * returns, round and round until closed. It stands for an application's own indexing competing with
 * search for the machine.
 *
 * <p>Closing stops it; only the first close does anything, so a shutdown hook and the code that
 * started it may both close it.
 */
public final class IndexingBeside implements AutoCloseable {

  /** Documents per chunk: a returned core is held for about 1-5 ms. */
  public static final int CHUNK_DOCS = 50;

  private final LineDocsFeed feed;
  private final IndexWriter writer;
  private final BackgroundIndexing indexing;
  private final Consumer<String> log;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private IndexingBeside(
      LineDocsFeed feed, IndexWriter writer, BackgroundIndexing indexing, Consumer<String> log) {
    this.feed = feed;
    this.writer = writer;
    this.indexing = indexing;
    this.log = log;
  }

  /**
   * Starts indexing {@code lineDocs} on the cores {@code scheduler}'s budget returns, and says so
   * to {@code log}.
   *
   * @param analyzer the analyzer of the in-memory index, the searched index's
   * @param log takes one line when indexing starts and one when it stops
   */
  public static IndexingBeside start(
      Path lineDocs, Scheduler scheduler, Analyzer analyzer, Consumer<String> log)
      throws IOException {
    LineDocsFeed feed = new LineDocsFeed(lineDocs);
    // No merges: a concurrent merge scheduler's threads would run outside the returned cores.
    IndexWriter writer =
        new IndexWriter(
            new ByteBuffersDirectory(),
            new IndexWriterConfig(analyzer)
                .setRAMBufferSizeMB(16)
                .setMergePolicy(NoMergePolicy.INSTANCE)
                .setMergeScheduler(new SerialMergeScheduler()));
    BackgroundIndexing indexing = new BackgroundIndexing(writer, feed::next, CHUNK_DOCS);
    indexing.startOnBackgroundCores(
        SchedulerInternals.backgroundCores(scheduler), scheduler.workers());
    log.accept(
        String.format(
            "indexing %s beside search on the cores the budget %s returns",
            lineDocs, scheduler.budget() < scheduler.workers() ? "now" : "will"));
    return new IndexingBeside(feed, writer, indexing, log);
  }

  /** Documents indexed so far. */
  public long indexed() {
    return indexing.indexed();
  }

  /** Stops indexing, says how many documents it indexed, and drops the in-memory index. */
  @Override
  public void close() throws IOException, InterruptedException {
    if (stopped.compareAndSet(false, true)) {
      log.accept(String.format("indexed %,d documents beside search", indexing.stop()));
      try (feed) {
        writer.rollback();
      }
    }
  }
}
