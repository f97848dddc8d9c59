package dev.tailor.core.table;

import dev.tailor.core.Internal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a table-driven policy reads its table (an {@link IntervalTable}, a {@link TargetTable}):
 * the current table, swapped atomically when its file changes, for the nightly rebuild without a
 * restart.
 *
 * <p>A watching source polls the file's modification time and size (every second by default) on one
 * shared daemon thread; when they change it reads and validates the whole file and only then swaps
 * it in. A bad file leaves the last good table serving and is logged once, with the file and the
 * reason, through {@link System.Logger}, and counted ({@link #rejected()}, {@link #lastProblem()}).
 * Writers should replace the file atomically, as {@link IntervalTable#write} does; a half-written
 * file is simply a bad file until it is complete. Whatever the reader rejects (a bad file, a table
 * of another kind) is a bad file.
 *
 * <p>Readers pay one volatile read. Polling stops on {@link #close()}: whoever watches a file
 * closes its source (a policy that opened one closes it in its own {@code close}).
 */
@Internal
public final class TableSource<T> implements AutoCloseable {

  /**
   * Reads and validates a table file.
   *
   * @param <T> the table
   */
  @FunctionalInterface
  public interface Reader<T> {
    /**
     * The table in {@code file}.
     *
     * @throws IOException if the file cannot be read or is not a valid table, naming the file, the
     *     field and the problem
     */
    T read(Path file) throws IOException;
  }

  private static final System.Logger LOG = System.getLogger(TableSource.class.getName());

  private static final ScheduledExecutorService POLLER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "tailor-table-watcher");
            t.setDaemon(true);
            return t;
          });

  private final Path file;
  private final Reader<T> reader;
  private final AtomicReference<T> current;
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong swaps = new AtomicLong();
  private final AtomicReference<String> lastProblem = new AtomicReference<>();
  private volatile Stamp seen;
  private volatile ScheduledFuture<?> polling;

  private TableSource(Path file, Reader<T> reader, T table, Stamp seen) {
    this.file = file;
    this.reader = reader;
    this.current = new AtomicReference<>(table);
    this.seen = seen;
  }

  /** A source that always serves {@code table}: for tests and the simulator. */
  public static <T> TableSource<T> fixed(T table) {
    return new TableSource<>(null, null, Objects.requireNonNull(table), null);
  }

  /** {@link #watch(Path, Reader, Duration)} polling every second. */
  public static <T> TableSource<T> watch(Path file, Reader<T> reader) throws IOException {
    return watch(file, reader, Duration.ofSeconds(1));
  }

  /**
   * Reads and validates {@code file} and watches it for changes.
   *
   * @throws IOException if the file is missing or not a valid table (the message names the file,
   *     the field and the problem)
   */
  public static <T> TableSource<T> watch(Path file, Reader<T> reader, Duration every)
      throws IOException {
    Stamp stamp = Stamp.of(file);
    TableSource<T> source = new TableSource<>(file, reader, reader.read(file), stamp);
    long millis = Math.max(1, every.toMillis());
    source.polling =
        POLLER.scheduleWithFixedDelay(
            source::reloadIfChanged, millis, millis, TimeUnit.MILLISECONDS);
    return source;
  }

  /** The table to serve now. */
  public T current() {
    return current.get();
  }

  /** Whether the file is still polled for a new table: watched and not yet closed. */
  public boolean isWatching() {
    ScheduledFuture<?> p = polling;
    return p != null && !p.isDone();
  }

  /** The watched file, or {@code null} for a fixed source. */
  public Path file() {
    return file;
  }

  /**
   * Reads the file now, whether or not it changed, and swaps it in if it is valid.
   *
   * @return whether a new table was swapped in; {@code false} for a fixed source or a bad file,
   *     which is logged and leaves the current table serving
   */
  public boolean reload() {
    if (file == null) {
      return false;
    }
    Stamp stamp;
    try {
      stamp = Stamp.of(file);
    } catch (IOException e) {
      reject(file + ": cannot read (" + e + ")");
      return false;
    }
    seen = stamp;
    try {
      T next = reader.read(file);
      current.set(next);
      swaps.incrementAndGet();
      LOG.log(System.Logger.Level.INFO, file + ": swapped in " + next);
      return true;
    } catch (IOException e) {
      // The reader's message names the file, the field and the problem.
      reject(e.getMessage());
      return false;
    } catch (RuntimeException e) {
      reject(file + ": " + e.getMessage());
      return false;
    }
  }

  private void reject(String problem) {
    rejected.incrementAndGet();
    lastProblem.set(problem);
    LOG.log(System.Logger.Level.WARNING, "bad file, keeping the current one: " + problem);
  }

  /**
   * Tables swapped in since the source was created: valid files read after the first, whether the
   * poller saw them change or {@link #reload()} was called. Always 0 for a fixed source.
   */
  public long swaps() {
    return swaps.get();
  }

  /** Files read after a change and rejected, each leaving the current table serving. */
  public long rejected() {
    return rejected.get();
  }

  /** Why the last rejected file was rejected, or null if none was. */
  public String lastProblem() {
    return lastProblem.get();
  }

  /** Reloads if the file's modification time or size changed since it was last read. */
  void reloadIfChanged() {
    try {
      if (!Stamp.of(file).equals(seen)) {
        reload();
      }
    } catch (NoSuchFileException e) {
      // Between a delete and the next write: the current table keeps serving.
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, file + ": " + e);
    }
  }

  /** Stops watching; the current table stays readable. Idempotent. */
  @Override
  public void close() {
    ScheduledFuture<?> p = polling;
    if (p != null) {
      p.cancel(false);
    }
  }

  /** What identifies a version of the file cheaply. */
  private record Stamp(long modifiedNanos, long size) {
    static Stamp of(Path file) throws IOException {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return new Stamp(a.lastModifiedTime().to(TimeUnit.NANOSECONDS), a.size());
    }
  }
}
