package dev.tailor.cli;

import dev.tailor.corpora.fetch.Dataset;
import dev.tailor.lucene.TotalHits;
import dev.tailor.measure.DemandProfile;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The real query traces {@code tailor demo} can run, with what the demo says of each and how many
 * of its queries it profiles by default.
 */
enum DemoWorkload {
  /**
   * The TREC 2005 Terabyte efficiency queries: short web-search log queries whose cost spreads like
   * the papers' workloads (a P99 many times the median), so that the policies have a tail to act
   * on.
   */
  TB05(
      Dataset.TREC_TB05,
      "topics.terabyte05.efficiency.txt",
      "TREC 2005 Terabyte efficiency queries",
      1000,
      1_000_000,
      DemandProfile.Settings.DEFAULT_TOTAL_HITS_THRESHOLD),
  /**
   * The same queries on a larger index, each search counting every hit (as OpenSearch's {@code
   * track_total_hits: true}), so that every match is scored as in the papers' Lucene.
   */
  TB05_EXACT(
      Dataset.TREC_TB05,
      "topics.terabyte05.efficiency.txt",
      "TREC 2005 Terabyte efficiency queries, every hit counted",
      1000,
      2_000_000,
      TotalHits.EXACT),
  /** The Natural Questions test questions: costs close to one another, kept for comparison. */
  NQ(
      Dataset.NQ,
      "topics.dpr.nq.test.txt",
      "Natural Questions queries",
      200,
      1_000_000,
      DemandProfile.Settings.DEFAULT_TOTAL_HITS_THRESHOLD);

  /** The dataset {@code tailor trace fetch} fetches it from. */
  final Dataset dataset;

  /** What the demo's lines call it, e.g. "TREC 2005 Terabyte efficiency queries". */
  final String label;

  /** Queries profiled and replayed unless {@code --queries} says otherwise. */
  final int defaultQueries;

  /** Synthetic documents indexed unless {@code --docs} says otherwise. */
  final int defaultDocs;

  /** How far each search counts its hits ({@link TotalHits#EXACT} for every one). */
  final int totalHitsThreshold;

  private final String traceFile;

  DemoWorkload(
      Dataset dataset,
      String traceFile,
      String label,
      int defaultQueries,
      int defaultDocs,
      int totalHitsThreshold) {
    this.dataset = dataset;
    this.traceFile = traceFile;
    this.label = label;
    this.defaultQueries = defaultQueries;
    this.defaultDocs = defaultDocs;
    this.totalHitsThreshold = totalHitsThreshold;
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

  /**
   * Its name in file names and on the command line: {@code tb05}, {@code tb05-exact} or {@code nq}.
   */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The workload named {@code name} as {@link #toString} gives it; picocli's converter. */
  static DemoWorkload of(String name) {
    for (DemoWorkload w : values()) {
      if (w.toString().equals(name)) {
        return w;
      }
    }
    throw new IllegalArgumentException(
        "expected one of tb05, tb05-exact, nq for the workload, got '" + name + "'");
  }
}
