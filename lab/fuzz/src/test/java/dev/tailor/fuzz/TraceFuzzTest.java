package dev.tailor.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tailor.corpora.index.IndexAnalyzer;
import dev.tailor.corpora.trace.QueryTrace;
import dev.tailor.corpora.trace.TraceFormat;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.analysis.Analyzer;

/**
 * Fuzzes the query-trace readers, {@link QueryTrace#read} in each {@link TraceFormat} and {@link
 * TraceFormat#detect}, under {@link FuzzFiles}'s contract. Each input is read twice, leniently and
 * strictly: a lenient read either yields at least one query or fails naming the file, and every
 * warning it gives names the file and the line; a strict read fails naming the file wherever the
 * lenient one warned. The bytes may be gzip or bzip2, which the readers decompress by their magic.
 *
 * <p>Seeds: {@code TraceFuzzTestInputs/<method>/}, small traces of each format written for these
 * tests, plain and compressed.
 */
class TraceFuzzTest {

  private static final Analyzer ANALYZER = IndexAnalyzer.ENGLISH.create();

  @FuzzTest
  void luceneutil(byte[] data) {
    read("trace-luceneutil", TraceFormat.LUCENEUTIL, data);
  }

  @FuzzTest
  void plain(byte[] data) {
    read("trace-plain", TraceFormat.PLAIN, data);
  }

  @FuzzTest
  void trec(byte[] data) {
    read("trace-trec", TraceFormat.TREC, data);
  }

  @FuzzTest
  void nq(byte[] data) {
    read("trace-nq", TraceFormat.NQ, data);
  }

  @FuzzTest
  void detect(byte[] data) {
    Path file = FuzzFiles.write("trace-detect", ".txt", data);
    TraceFormat format = FuzzFiles.readOrReject(file, TraceFormat::detect);
    if (format != null) {
      FuzzFiles.readOrReject(file, f -> QueryTrace.read(f, format, ANALYZER, false));
    }
  }

  private static void read(String target, TraceFormat format, byte[] data) {
    Path file = FuzzFiles.write(target, ".txt", data);
    QueryTrace lenient =
        FuzzFiles.readOrReject(file, f -> QueryTrace.read(f, format, ANALYZER, false));
    if (lenient != null) {
      if (lenient.queries().isEmpty()) {
        throw new AssertionError("a trace read without error has no query");
      }
      for (String warning : lenient.warnings()) {
        if (!warning.matches("\\Q" + file + "\\E:[0-9]+: (?s).+")) {
          throw new AssertionError("a warning that does not name the file and line: " + warning);
        }
      }
    }
    try {
      QueryTrace.read(file, format, ANALYZER, true);
      if (lenient == null || !lenient.warnings().isEmpty()) {
        throw new AssertionError(
            "a strict read accepted what a lenient read "
                + (lenient == null ? "rejected" : "warned about"));
      }
    } catch (IOException e) {
      FuzzFiles.assertNamesFile(file, e);
    }
  }
}
