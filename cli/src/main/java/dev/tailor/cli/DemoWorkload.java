package dev.tailor.cli;

import dev.tailor.corpora.fetch.Dataset;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The real query traces {@code tailor demo} can run, with what the demo says of each and how many
 * of its queries it profiles by default.
 */
enum DemoWorkload {
  /**
   * The TREC 2005 Terabyte efficiency queries: short web-search log queries whose cost on the 1M
   * document index spreads like the papers' workloads (a P99 many times the median), so that the
   * policies have a tail to act on. 1,000 queries by default: their P99 is then the 10th slowest
   * rather than the 2nd (as with 200), and their profile at this machine's degrees takes about a
   * minute.
   */
  TB05(
      Dataset.TREC_TB05,
      "topics.terabyte05.efficiency.txt",
      "TREC 2005 Terabyte efficiency queries",
      1000),
  /**
   * The Natural Questions test questions: longer natural-language questions whose costs are close
   * to one another (a narrow spread), kept for comparison. 200 by default, as the demo took before.
   */
  NQ(Dataset.NQ, "topics.dpr.nq.test.txt", "Natural Questions queries", 200);

  private final Dataset dataset;
  private final String traceFile;
  private final String label;
  private final int defaultQueries;

  DemoWorkload(Dataset dataset, String traceFile, String label, int defaultQueries) {
    this.dataset = dataset;
    this.traceFile = traceFile;
    this.label = label;
    this.defaultQueries = defaultQueries;
  }

  /** The dataset {@code tailor trace fetch} fetches it from. */
  Dataset dataset() {
    return dataset;
  }

  /** The trace file as fetched under the data directory. */
  Path trace(Path dataDir) {
    return dataDir.resolve("traces").resolve(dataset.id()).resolve(traceFile);
  }

  /** What the demo's lines call it, e.g. "TREC 2005 Terabyte efficiency queries". */
  String label() {
    return label;
  }

  /** Queries profiled and replayed unless {@code --queries} says otherwise. */
  int defaultQueries() {
    return defaultQueries;
  }

  /** Its name in file names and on the command line: {@code tb05} or {@code nq}. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
