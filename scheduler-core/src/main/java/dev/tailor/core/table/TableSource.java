package dev.tailor.core.table;

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
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a table-driven policy reads its {@link IntervalTable}: the current table, swapped
 * atomically when its file changes, for the nightly rebuild without a restart.
 *
 * <p>A watching source polls the file's modification time and size (every second by default) on one
 * shared daemon thread; when they change it reads and validates the whole file and only then swaps
 * it in. A bad file leaves the last good table serving and is logged once, with the file and the
 * reason, through {@link System.Logger}. Writers should replace the file atomically, as {@link
 * IntervalTable#write} does; a half-written file is simply a bad file until it is complete.
 *
 * <p>Readers pay one volatile read. Polling stops on {@link #close()}: whoever watches a file
 * closes its source (a policy that opened one closes it in its own {@code close}).
 */
public final class TableSource implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(TableSource.class.getName());

  private static final ScheduledExecutorService POLLER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "tailor-table-watcher");
            t.setDaemon(true);
            return t;
          });

  private final Path file;
  private final AtomicReference<IntervalTable> current;
  private volatile Stamp seen;
  private volatile ScheduledFuture<?> polling;

  private TableSource(Path file, IntervalTable table, Stamp seen) {
    this.file = file;
    this.current = new AtomicReference<>(table);
    this.seen = seen;
  }

  /** A source that always serves {@code table}: for tests and the simulator. */
  public static TableSource fixed(IntervalTable table) {
    return new TableSource(null, Objects.requireNonNull(table), null);
  }

  /** {@link #watch(Path, Duration)} polling every second. */
  public static TableSource watch(Path file) throws IOException {
    return watch(file, Duration.ofSeconds(1));
  }

  /**
   * Reads and validates {@code file} and watches it for changes.
   *
   * @throws IOException if the file is missing or not a valid table (the message names the file,
   *     the field and the problem)
   */
  public static TableSource watch(Path file, Duration every) throws IOException {
    Stamp stamp = Stamp.of(file);
    TableSource source = new TableSource(file, IntervalTable.read(file), stamp);
    long millis = Math.max(1, every.toMillis());
    source.polling =
        POLLER.scheduleWithFixedDelay(
            source::reloadIfChanged, millis, millis, TimeUnit.MILLISECONDS);
    return source;
  }

  /** The table to serve now. */
  public IntervalTable current() {
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
      LOG.log(
          System.Logger.Level.WARNING,
          file + ": cannot read (" + e + "); keeping the current table");
      return false;
    }
    seen = stamp;
    try {
      IntervalTable next = IntervalTable.read(file);
      current.set(next);
      LOG.log(
          System.Logger.Level.INFO,
          file
              + ": swapped in the table built at "
              + next.builtAt()
              + " ("
              + next.inputs().profileDigest()
              + ")");
      return true;
    } catch (IOException e) {
      // The reader's message names the file, the field and the problem.
      LOG.log(System.Logger.Level.WARNING, "bad table, keeping the current one: " + e.getMessage());
      return false;
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "bad table, keeping the current one: " + file + ": " + e.getMessage());
      return false;
    }
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
