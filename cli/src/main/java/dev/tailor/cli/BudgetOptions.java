package dev.tailor.cli;

import dev.tailor.core.Durations;
import dev.tailor.core.Scheduler;
import dev.tailor.core.budget.BudgetPolicy;
import dev.tailor.corpora.linedocs.LineDocsFeed;
import dev.tailor.profiler.BackgroundIndexing;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.ByteBuffersDirectory;
import picocli.CommandLine.Option;

/**
 * The elastic worker budget's options of {@code serve}, and the background indexing that takes the
 * cores the budget returns ({@code --index-beside}).
 */
final class BudgetOptions {

  /** Documents per chunk of background indexing: a returned core is held for about 1-5 ms. */
  static final int CHUNK_DOCS = 50;

  @Option(
      names = "--budget",
      paramLabel = "SPEC",
      description =
          "An elastic worker budget: static, delay-range[:LO,HI] or utilization-range[:LO,HI]."
              + " Default: every worker, always.")
  String budget;

  @Option(
      names = "--budget-min",
      paramLabel = "N",
      defaultValue = "1",
      description = "The least budget (default ${DEFAULT-VALUE}).")
  int budgetMin;

  @Option(
      names = "--budget-period",
      paramLabel = "DURATION",
      defaultValue = "1ms",
      description = "How often the budget is resized (default ${DEFAULT-VALUE}).")
  String budgetPeriod;

  @Option(
      names = "--index-beside",
      paramLabel = "FILE",
      description = "Line documents to index on the cores the budget returns; needs --budget.")
  Path indexBeside;

  /**
   * Sets the budget on {@code builder}.
   *
   * @throws IllegalArgumentException naming the option if a value is bad
   */
  void apply(Scheduler.Builder builder) {
    if (budget == null) {
      if (indexBeside != null) {
        throw new IllegalArgumentException(
            "--index-beside needs --budget: a static budget returns no core to index on");
      }
      return;
    }
    BudgetPolicy policy;
    try {
      policy = BudgetPolicy.of(budget);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--budget: " + e.getMessage(), e);
    }
    try {
      Duration period = Duration.ofNanos(Durations.parseNanos(budgetPeriod));
      builder.elasticBudget(policy, budgetMin, period);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--budget-min/--budget-period: " + e.getMessage(), e);
    }
    if (indexBeside != null && !Files.isRegularFile(indexBeside)) {
      throw new IllegalArgumentException("--index-beside: " + indexBeside + " is not a file");
    }
  }

  /** Indexing beside search, started by {@link #startBeside}: its count, and a stop (once). */
  interface Running extends AutoCloseable {
    /** Documents indexed so far; 0 when nothing is indexed beside search. */
    long indexed();
  }

  /** Whether {@code --index-beside} asks for indexing beside search. */
  boolean indexesBeside() {
    return indexBeside != null;
  }

  /**
   * Starts indexing beside search if asked: the line documents into a second, in-memory index, in
   * chunks of {@value #CHUNK_DOCS} documents on the cores the budget returns, round and round until
   * stopped. The returned object counts and stops it (once).
   */
  Running startBeside(Scheduler scheduler, Analyzer analyzer, PrintWriter err) throws IOException {
    if (indexBeside == null) {
      return new Running() {
        @Override
        public long indexed() {
          return 0;
        }

        @Override
        public void close() {}
      };
    }
    LineDocsFeed feed = new LineDocsFeed(indexBeside);
    IndexWriter writer =
        new IndexWriter(
            new ByteBuffersDirectory(),
            new IndexWriterConfig(analyzer)
                .setRAMBufferSizeMB(16)
                .setMergePolicy(NoMergePolicy.INSTANCE)
                .setMergeScheduler(new SerialMergeScheduler()));
    BackgroundIndexing indexing = new BackgroundIndexing(writer, feed::next, CHUNK_DOCS);
    indexing.startOnReturnedCores(scheduler.returnedCores(), scheduler.workers());
    err.printf(
        "indexing %s beside search on the cores the budget %s returns%n",
        indexBeside, scheduler.budget() < scheduler.workers() ? "now" : "will");
    AtomicBoolean stopped = new AtomicBoolean();
    return new Running() {
      @Override
      public long indexed() {
        return indexing.indexed();
      }

      @Override
      public void close() throws Exception {
        if (stopped.compareAndSet(false, true)) { // the shutdown hook and the command both stop it
          err.printf("indexed %,d documents beside search%n", indexing.stop());
          err.flush();
          try (feed) {
            writer.rollback();
          }
        }
      }
    };
  }
}
