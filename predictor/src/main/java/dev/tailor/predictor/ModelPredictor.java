package dev.tailor.predictor;

import dev.tailor.core.Predictor;
import dev.tailor.core.policy.RequestView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.Query;

/**
 * TPC's predictor over an index (Jeon et al., ASPLOS'16, §3.1): a query's {@link QueryFeatures} on
 * the index, then a {@link PredictorModel}'s forest, evaluated in Java. Give it to {@code
 * TailorSearcher.setPredictor} and every search carries its predicted sequential time.
 *
 * <p>A predictor over a model file can {@linkplain #watch watch} it, as a table-driven policy
 * watches its table: the file's modification time and size are polled (every second by default) on
 * one shared daemon thread, and a changed file is read and validated whole before it is swapped in
 * atomically. A bad file (corrupt, another format, trained on other features) leaves the current
 * model serving, is logged with the file and the reason through {@link System.Logger}, and counted
 * ({@link #rejectedModels()}, {@link #lastProblem()}). Writers should replace the file atomically,
 * as {@link PredictorModel#write} does.
 *
 * <p>{@link #predictSequentialNanos} never throws: a query whose features cannot be computed (an
 * index error, a query the features do not understand) is predicted {@link RequestView#UNKNOWN} and
 * counted in {@link #failures()}. Thread-safe; a prediction pays one volatile read for the model
 * and allocates one small feature vector besides what rewriting the query allocates.
 */
public final class ModelPredictor implements Predictor<Query>, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(ModelPredictor.class.getName());

  private static final ScheduledExecutorService POLLER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "tailor-model-watcher");
            t.setDaemon(true);
            return t;
          });

  private final QueryFeatures features;
  private final Path file;
  private final AtomicReference<PredictorModel> current;
  private final LongAdder failures = new LongAdder();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicReference<String> lastProblem = new AtomicReference<>();
  private volatile Stamp seen;
  private volatile ScheduledFuture<?> polling;

  private ModelPredictor(IndexReader reader, Path file, PredictorModel model, Stamp seen) {
    this.features = new QueryFeatures(reader);
    this.file = file;
    this.current = new AtomicReference<>(model);
    this.seen = seen;
  }

  /** A predictor that always uses {@code model} on {@code reader}. */
  public static ModelPredictor of(IndexReader reader, PredictorModel model) {
    return new ModelPredictor(reader, null, model, null);
  }

  /** {@link #watch(IndexReader, Path, Duration)} polling every second. */
  public static ModelPredictor watch(IndexReader reader, Path file) throws IOException {
    return watch(reader, file, Duration.ofSeconds(1));
  }

  /**
   * Reads and validates the model {@code file} and watches it for changes.
   *
   * @throws IOException if the file is missing or not a valid model of this Tailor's features (the
   *     message names the file, the field and the problem)
   */
  public static ModelPredictor watch(IndexReader reader, Path file, Duration every)
      throws IOException {
    Stamp stamp = Stamp.of(file);
    PredictorModel model = PredictorModel.read(file);
    ModelPredictor predictor = new ModelPredictor(reader, file, model, stamp);
    predictor.checkIndex(model);
    long millis = Math.max(1, every.toMillis());
    predictor.polling =
        POLLER.scheduleWithFixedDelay(
            predictor::reloadIfChanged, millis, millis, TimeUnit.MILLISECONDS);
    return predictor;
  }

  @Override
  public long predictSequentialNanos(Query query) {
    try {
      return current.get().predictNanos(features.extract(query));
    } catch (IOException | RuntimeException e) {
      failures.increment();
      return RequestView.UNKNOWN;
    }
  }

  /** The model predicting now. */
  public PredictorModel model() {
    return current.get();
  }

  /** The watched file, or null for a fixed model. */
  public Path file() {
    return file;
  }

  /** Queries that could not be predicted (and were predicted {@link RequestView#UNKNOWN}). */
  public long failures() {
    return failures.sum();
  }

  /** Model files read after a change and rejected, keeping the current model. */
  public long rejectedModels() {
    return rejected.get();
  }

  /** Why the last rejected model file was rejected, or null if none was. */
  public String lastProblem() {
    return lastProblem.get();
  }

  /** Whether the file is still polled for a new model: watched and not yet closed. */
  public boolean isWatching() {
    ScheduledFuture<?> p = polling;
    return p != null && !p.isDone();
  }

  /**
   * Reads the file now, whether or not it changed, and swaps it in if it is a valid model.
   *
   * @return whether a new model was swapped in; {@code false} for a fixed model or a bad file,
   *     which is logged and counted and leaves the current model predicting
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
      PredictorModel next = PredictorModel.read(file);
      current.set(next);
      checkIndex(next);
      LOG.log(
          System.Logger.Level.INFO,
          file
              + ": swapped in the model trained at "
              + next.trainedAt()
              + " on "
              + next.training().profile()
              + " ("
              + next.training().profileDigest()
              + ")");
      return true;
    } catch (IOException e) {
      // The reader's message names the file, the field and the problem.
      reject(e.getMessage());
      return false;
    } catch (RuntimeException e) {
      reject(file + ": " + e);
      return false;
    }
  }

  private void reject(String problem) {
    rejected.incrementAndGet();
    lastProblem.set(problem);
    LOG.log(System.Logger.Level.WARNING, "bad model, keeping the current one: " + problem);
  }

  /**
   * Warns when a model was trained on an index of another size: its features still compute, but
   * their scale (document frequencies, costs) differs from what it learned.
   */
  private void checkIndex(PredictorModel model) {
    long docs = features.reader().maxDoc();
    if (model.training().indexDocs() != docs) {
      LOG.log(
          System.Logger.Level.WARNING,
          (file != null ? file + ": " : "")
              + "the model was trained on an index of "
              + model.training().indexDocs()
              + " documents, this one has "
              + docs
              + "; its predictions may be off");
    }
  }

  /** Reloads if the file's modification time or size changed since it was last read. */
  void reloadIfChanged() {
    try {
      if (!Stamp.of(file).equals(seen)) {
        reload();
      }
    } catch (NoSuchFileException e) {
      // Between a delete and the next write: the current model keeps predicting.
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, file + ": " + e);
    }
  }

  /** Stops watching; the current model keeps predicting. Idempotent. */
  @Override
  public void close() {
    ScheduledFuture<?> p = polling;
    if (p != null) {
      p.cancel(false);
    }
  }

  @Override
  public String toString() {
    PredictorModel m = current.get();
    return "model "
        + (file != null ? file.getFileName() + " " : "")
        + "trained on "
        + m.training().profile()
        + " ("
        + m.trees()
        + " trees)";
  }

  /** What identifies a version of the file cheaply. */
  private record Stamp(long modifiedNanos, long size) {
    static Stamp of(Path file) throws IOException {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return new Stamp(a.lastModifiedTime().to(TimeUnit.NANOSECONDS), a.size());
    }
  }
}
