package dev.tailor.profiler;

import dev.tailor.core.BackgroundCores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;

/**
 * Indexing beside search: threads that add documents to an {@link IndexWriter} in chunks, either on
 * dedicated threads (a static split of the machine) or on the cores an elastic budget {@linkplain
 * BackgroundCores returns} (one chunk per returned core at a time, so search gets a core back
 * within a chunk). The writer and the documents are the application's; this class only paces them.
 *
 * <p>Give the writer a merge scheduler that runs merges inside the chunks' threads ({@code
 * SerialMergeScheduler}) or none at all ({@code NoMergePolicy}) if merges must stay within the
 * returned cores too: a concurrent merge scheduler's threads are the JVM's, not the budget's.
 */
public final class BackgroundIndexing implements AutoCloseable {

  /** The documents to index; called by several threads at once, so it must be thread-safe. */
  @FunctionalInterface
  public interface DocumentSource {
    /** The next document, or null when there are no more. */
    Document next() throws IOException;
  }

  /**
   * How often a thread waiting for a returned core looks whether indexing stopped. Stopping never
   * interrupts: an interrupt inside the writer would close the index's file channels.
   */
  private static final long POLL_MILLIS = 20;

  private final IndexWriter writer;
  private final DocumentSource source;
  private final int chunkDocs;
  private final AtomicLong indexed = new AtomicLong();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;
  private volatile Throwable failure;

  /**
   * Indexing that has not started.
   *
   * @param chunkDocs documents per chunk: the most a returned core is held for at a time
   * @throws IllegalArgumentException if {@code chunkDocs < 1}
   */
  public BackgroundIndexing(IndexWriter writer, DocumentSource source, int chunkDocs) {
    if (chunkDocs < 1) {
      throw new IllegalArgumentException("chunkDocs must be >= 1, got " + chunkDocs);
    }
    this.writer = Objects.requireNonNull(writer, "writer");
    this.source = Objects.requireNonNull(source, "source");
    this.chunkDocs = chunkDocs;
  }

  /** Starts {@code count} threads that index all the time, each on a thread of its own. */
  public void startDedicated(int count) {
    start(count, null);
  }

  /**
   * Starts as many threads as {@code cores} could ever return ({@code workers}); each indexes a
   * chunk whenever a returned core is free.
   */
  public void startOnBackgroundCores(BackgroundCores cores, int workers) {
    start(workers, Objects.requireNonNull(cores, "cores"));
  }

  private synchronized void start(int count, BackgroundCores cores) {
    if (!threads.isEmpty()) {
      throw new IllegalStateException("already started");
    }
    for (int i = 0; i < count; i++) {
      threads.add(
          Thread.ofPlatform()
              .name("tailor-background-indexing-" + i)
              .daemon()
              .start(() -> loop(cores)));
    }
  }

  private void loop(BackgroundCores cores) {
    try {
      boolean more = true;
      while (running && more) {
        if (cores == null) {
          more = chunk();
        } else if (cores.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
          try {
            more = chunk();
          } finally {
            cores.release();
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the application interrupted us: stop
    } catch (RuntimeException | Error e) {
      failure = e;
      running = false;
    }
  }

  /** Indexes one chunk; false when the source is exhausted or indexing stops. */
  private boolean chunk() {
    try {
      for (int i = 0; i < chunkDocs && running; i++) {
        Document d = source.next();
        if (d == null) {
          return false;
        }
        writer.addDocument(d);
        indexed.incrementAndGet();
      }
      return running;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Documents indexed so far. */
  public long indexed() {
    return indexed.get();
  }

  /** What stopped a thread, or null: indexing stops at the first failure. */
  public Throwable failure() {
    return failure;
  }

  /**
   * Stops the threads (a chunk under way ends at its next document, a thread waiting for a core
   * within {@value #POLL_MILLIS} ms) and waits for them.
   *
   * @return the documents indexed
   */
  public long stop() throws InterruptedException {
    running = false;
    List<Thread> ts;
    synchronized (this) {
      ts = List.copyOf(threads);
    }
    for (Thread t : ts) {
      t.join();
    }
    return indexed.get();
  }

  /** Stops, as {@link #stop()} does; the writer stays open: it is the application's. */
  @Override
  public void close() {
    try {
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
