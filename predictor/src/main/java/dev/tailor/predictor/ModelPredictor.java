package dev.tailor.predictor;

import dev.tailor.core.Predictor;
import dev.tailor.core.policy.RequestView;
import dev.tailor.core.table.TableSource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.Query;

/**
 * TPC's predictor over an index (Jeon et al., ASPLOS'16, §3.1): a query's {@link QueryFeatures} on
 * the index, then a {@link PredictorModel}'s forest, evaluated in Java. Give it to {@code
 * TailorSearcher.setPredictor} and every search carries its predicted sequential time.
 *
 * <p>A predictor over a model file can {@linkplain #watch watch} it, through the {@link
 * TableSource} a table-driven policy watches its table with: the file's modification time and size
 * are polled (every second by default) on one shared daemon thread, and a changed file is read and
 * validated whole before it is swapped in atomically. A bad file (corrupt, another format, trained
 * on other features) leaves the current model serving, is logged with the file and the reason
 * through {@link System.Logger}, and counted ({@link #rejectedModels()}, {@link #lastProblem()}).
 * Writers should replace the file atomically, as {@link PredictorModel#write} does.
 *
 * <p>{@link #predictSequentialNanos} never throws: a query whose features cannot be computed (an
 * index error, a query the features do not understand) is predicted {@link RequestView#UNKNOWN} and
 * counted in {@link #failures()}. Thread-safe; a prediction pays one volatile read for the model
 * and allocates one small feature vector besides what rewriting the query allocates.
 */
public final class ModelPredictor implements Predictor<Query>, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(ModelPredictor.class.getName());

  private final QueryFeatures features;
  private final TableSource<PredictorModel> source;
  private final LongAdder failures = new LongAdder();

  private ModelPredictor(QueryFeatures features, TableSource<PredictorModel> source) {
    this.features = features;
    this.source = source;
  }

  /** A predictor that always uses {@code model} on {@code reader}. */
  public static ModelPredictor of(IndexReader reader, PredictorModel model) {
    return new ModelPredictor(new QueryFeatures(reader), TableSource.fixed(model));
  }

  /** {@link #watch(IndexReader, Path, Duration)} polling every second. */
  public static ModelPredictor watch(IndexReader reader, Path file) throws IOException {
    return watch(reader, file, Duration.ofSeconds(1));
  }

  /**
   * Reads and validates the model {@code file} and watches it for changes, through the same {@link
   * TableSource} a table-driven policy watches its table with.
   *
   * @throws IOException if the file is missing or not a valid model of this Tailor's features (the
   *     message names the file, the field and the problem)
   */
  public static ModelPredictor watch(IndexReader reader, Path file, Duration every)
      throws IOException {
    QueryFeatures features = new QueryFeatures(reader);
    TableSource<PredictorModel> source =
        TableSource.watch(
            file,
            f -> {
              PredictorModel model = PredictorModel.read(f);
              checkIndex(features, f, model);
              return model;
            },
            every);
    return new ModelPredictor(features, source);
  }

  @Override
  public long predictSequentialNanos(Query query) {
    try {
      return source.current().predictNanos(features.extract(query));
    } catch (IOException | RuntimeException e) {
      failures.increment();
      return RequestView.UNKNOWN;
    }
  }

  /** The model predicting now. */
  public PredictorModel model() {
    return source.current();
  }

  /** The watched file, or null for a fixed model. */
  public Path file() {
    return source.file();
  }

  /** Queries that could not be predicted (and were predicted {@link RequestView#UNKNOWN}). */
  public long failures() {
    return failures.sum();
  }

  /** Model files read after a change and rejected, keeping the current model. */
  public long rejectedModels() {
    return source.rejected();
  }

  /** Why the last rejected model file was rejected, or null if none was. */
  public String lastProblem() {
    return source.lastProblem();
  }

  /** Whether the file is still polled for a new model: watched and not yet closed. */
  public boolean isWatching() {
    return source.isWatching();
  }

  /**
   * Reads the file now, whether or not it changed, and swaps it in if it is a valid model.
   *
   * @return whether a new model was swapped in; {@code false} for a fixed model or a bad file,
   *     which is logged and counted and leaves the current model predicting
   */
  public boolean reload() {
    return source.reload();
  }

  /**
   * Warns when a model was trained on an index of another size: its features still compute, but
   * their scale (document frequencies, costs) differs from what it learned.
   */
  private static void checkIndex(QueryFeatures features, Path file, PredictorModel model) {
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

  /** Stops watching; the current model keeps predicting. Idempotent. */
  @Override
  public void close() {
    source.close();
  }

  @Override
  public String toString() {
    PredictorModel m = source.current();
    Path file = source.file();
    return "model "
        + (file != null ? file.getFileName() + " " : "")
        + "trained on "
        + m.training().profile()
        + " ("
        + m.trees()
        + " trees)";
  }
}
