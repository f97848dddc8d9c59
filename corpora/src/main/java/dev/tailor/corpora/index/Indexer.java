package dev.tailor.corpora.index;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.Corpus;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.DocSource;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Version;

/**
 * Builds a Lucene index from a corpus: fields {@code id} (the document's ordinal, stored), {@code
 * title} (analyzed and stored), {@code body} (analyzed, not stored) and {@code date} (stored as
 * written), with a reproducible segment layout and a {@link IndexManifest}.
 *
 * <p>The layout: segment {@code i} holds documents {@code [i * k, (i + 1) * k)} in corpus order,
 * with {@code k = ceil(docs / segments)} (see {@link BandMergePolicy}), so the same corpus and
 * segment count always give the same segments, whatever the number of threads. When the corpus can
 * start reading anywhere ({@link Corpus#seeksCheaply()}: uncompressed line docs), the segments are
 * built in parallel, each as an index of its own, and then added in order; otherwise one thread
 * adds the documents in order and flushes at every segment boundary.
 *
 * <p>The index is built in a directory beside the target and moved into place when complete, so a
 * half-built index is never where a complete one is expected; an existing index is replaced only
 * when asked.
 */
public final class Indexer {

  /** Documents between two progress reports. */
  static final int PROGRESS_EVERY = 1_000;

  /**
   * How to build.
   *
   * @param segments the number of segments wanted (fewer if there are fewer documents)
   * @param force whether an existing target is replaced
   * @param analyzer the analyzer for title and body
   * @param ramBufferMb the indexing buffer; larger buffers mean fewer intermediate flushes
   */
  public record Options(
      int segments, boolean force, IndexAnalyzer analyzer, double ramBufferMb, int threads) {
    /** Checks the values. */
    public Options {
      if (segments < 1) {
        throw new IllegalArgumentException("segments must be at least 1, got " + segments);
      }
      if (ramBufferMb <= 0) {
        throw new IllegalArgumentException("ramBufferMb must be positive, got " + ramBufferMb);
      }
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1, got " + threads);
      }
    }

    /** Options with one indexing thread per processor. */
    public Options(int segments, boolean force, IndexAnalyzer analyzer, double ramBufferMb) {
      this(segments, force, analyzer, ramBufferMb, Runtime.getRuntime().availableProcessors());
    }
  }

  /** Hears how far the build is. */
  @FunctionalInterface
  public interface Progress {
    /** Called every {@value #PROGRESS_EVERY} documents and at the end. */
    void update(long docsDone, long docsTotal);
  }

  private Indexer() {}

  /**
   * Builds the index of {@code corpus} at {@code out}.
   *
   * @throws FileAlreadyExistsException if {@code out} exists and {@code force} is not set
   * @throws BadInputException if the corpus has no document or is malformed
   */
  public static IndexManifest build(Corpus corpus, Path out, Options options, Progress progress)
      throws IOException {
    out = out.toAbsolutePath().normalize();
    if (Files.exists(out) && !options.force()) {
      throw new FileAlreadyExistsException(
          out.toString(), null, "exists already; pass --force to replace it");
    }
    long start = System.nanoTime();
    long total = corpus.count();
    if (total == 0) {
      throw new BadInputException(Path.of(corpus.source()), "the corpus has no document");
    }
    long perSegment = (total + options.segments() - 1) / options.segments();
    Files.createDirectories(out.getParent());
    Path tmp = AtomicFiles.siblingDirectory(out, "building");
    try {
      long added = write(corpus, tmp, options, perSegment, total, progress);
      if (added != total) {
        throw new BadInputException(
            Path.of(corpus.source()),
            "the corpus yielded "
                + added
                + " documents on the second read, "
                + total
                + " on the first");
      }
      List<IndexManifest.Segment> segments = segments(tmp, added);
      IndexManifest manifest =
          new IndexManifest(
              corpus.source(),
              corpus.label(),
              added,
              segments,
              options.analyzer(),
              Version.LATEST.toString(),
              Instant.now().toString(),
              (System.nanoTime() - start) / 1e9);
      manifest.write(tmp);
      AtomicFiles.replaceDirectory(tmp, out);
      return manifest;
    } finally {
      AtomicFiles.deleteTree(tmp);
    }
  }

  private static long write(
      Corpus corpus, Path dir, Options options, long perSegment, long total, Progress progress)
      throws IOException {
    int bands = (int) ((total + perSegment - 1) / perSegment);
    int threads = Math.min(options.threads(), bands);
    if (threads > 1 && corpus.seeksCheaply()) {
      return writeParallel(corpus, dir, options, perSegment, total, bands, threads, progress);
    }
    return writeSequential(corpus, dir, options, perSegment, total, progress);
  }

  private static IndexWriterConfig config(Options options, long perSegment, double ramBufferMb) {
    return new IndexWriterConfig(options.analyzer().create())
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
        .setMergePolicy(new BandMergePolicy(perSegment))
        .setMergeScheduler(new SerialMergeScheduler())
        .setRAMBufferSizeMB(ramBufferMb)
        .setUseCompoundFile(false)
        .setCommitOnClose(true);
  }

  /**
   * Builds every band as a one-segment index of its own, {@code threads} at a time, each reading
   * its documents from where they start in the corpus, then adds the bands to the index in order
   * ({@code addIndexes} copies segments as they are), so the result is the sequential layout.
   */
  private static long writeParallel(
      Corpus corpus,
      Path dir,
      Options options,
      long perSegment,
      long total,
      int bands,
      int threads,
      Progress progress)
      throws IOException {
    Path bandsRoot = dir.resolveSibling(dir.getFileName() + ".bands");
    Files.createDirectories(bandsRoot);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicLong done = new AtomicLong();
    Object progressLock = new Object();
    try {
      List<Future<Long>> futures = new ArrayList<>();
      for (int b = 0; b < bands; b++) {
        long first = b * perSegment;
        long count = Math.min(perSegment, total - first);
        Path bandDir = bandsRoot.resolve(Integer.toString(b));
        futures.add(
            pool.submit(
                () -> {
                  long added = 0;
                  try (FSDirectory directory = FSDirectory.open(bandDir);
                      IndexWriter writer =
                          new IndexWriter(
                              directory,
                              config(options, perSegment, options.ramBufferMb() / threads));
                      DocSource docs = corpus.openAt(first)) {
                    DocFields fields = new DocFields();
                    CorpusDoc d;
                    while (added < count && (d = docs.next()) != null) {
                      writer.addDocument(fields.of(first + added, d));
                      added++;
                      if (added % PROGRESS_EVERY == 0) {
                        long now = done.addAndGet(PROGRESS_EVERY);
                        synchronized (progressLock) {
                          progress.update(now, total);
                        }
                      }
                    }
                    if (added == count && first + count == total && docs.next() != null) {
                      // Reading on also reports malformed lines after the last document.
                      throw new IOException(
                          corpus.source() + ": more documents on the second read than counted");
                    }
                    done.addAndGet(added % PROGRESS_EVERY);
                    writer.forceMerge(1);
                    writer.commit();
                  }
                  return added;
                }));
      }
      long added = 0;
      for (Future<Long> f : futures) {
        added += f.get();
      }
      try (FSDirectory directory = FSDirectory.open(dir);
          IndexWriter writer = new IndexWriter(directory, config(options, perSegment, 16))) {
        FSDirectory[] parts = new FSDirectory[bands];
        try {
          for (int b = 0; b < bands; b++) {
            parts[b] = FSDirectory.open(bandsRoot.resolve(Integer.toString(b)));
          }
          writer.addIndexes(parts);
        } finally {
          for (FSDirectory p : parts) {
            if (p != null) {
              p.close();
            }
          }
        }
        writer.commit();
      }
      progress.update(done.get(), total);
      return added;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while indexing", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
      AtomicFiles.deleteTree(bandsRoot);
    }
  }

  private static long writeSequential(
      Corpus corpus, Path dir, Options options, long perSegment, long total, Progress progress)
      throws IOException {
    IndexWriterConfig config = config(options, perSegment, options.ramBufferMb());
    DocFields fields = new DocFields();
    long n = 0;
    try (FSDirectory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, config);
        DocSource docs = corpus.open()) {
      CorpusDoc d;
      while ((d = docs.next()) != null) {
        writer.addDocument(fields.of(n, d));
        n++;
        if (n % perSegment == 0) {
          writer.flush();
        }
        if (n % PROGRESS_EVERY == 0) {
          progress.update(n, total);
        }
      }
      writer.forceMerge(Integer.MAX_VALUE);
      writer.commit();
    }
    progress.update(n, total);
    return n;
  }

  /** One reusable Lucene document per indexing thread: its fields are reset for every document. */
  private static final class DocFields {
    private final StringField id = new StringField("id", "", Field.Store.YES);
    private final Field title = new Field("title", "", TextField.TYPE_STORED);
    private final Field body = new Field("body", "", TextField.TYPE_NOT_STORED);
    private final StringField date = new StringField("date", "", Field.Store.YES);
    private final Document doc = new Document();

    DocFields() {
      doc.add(id);
      doc.add(title);
      doc.add(body);
      doc.add(date);
    }

    Document of(long ordinal, CorpusDoc d) {
      id.setStringValue(Long.toString(ordinal));
      title.setStringValue(d.title());
      body.setStringValue(d.body());
      date.setStringValue(d.date());
      return doc;
    }
  }

  private static List<IndexManifest.Segment> segments(Path dir, long expectedDocs)
      throws IOException {
    List<IndexManifest.Segment> result = new ArrayList<>();
    try (FSDirectory directory = FSDirectory.open(dir)) {
      for (SegmentCommitInfo info : SegmentInfos.readLatestCommit(directory)) {
        result.add(
            new IndexManifest.Segment(info.info.name, info.info.maxDoc(), info.sizeInBytes()));
      }
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        if (reader.numDocs() != expectedDocs) {
          throw new IOException(
              dir
                  + ": the index holds "
                  + reader.numDocs()
                  + " documents, expected "
                  + expectedDocs);
        }
      }
    }
    return result;
  }
}
