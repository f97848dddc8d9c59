package dev.tailor.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.corpora.index.IndexAnalyzer;
import dev.tailor.corpora.trace.QueryTrace;
import dev.tailor.corpora.trace.TraceFormat;
import dev.tailor.measure.DemandProfile;
import dev.tailor.predictor.PredictorModel;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The seed corpora are what their names say: a seed named {@code bad-*} is rejected with an error
 * naming its file, every other one reads. A seed that no longer reads (the format moved on) would
 * leave the fuzzer starting from noise, and the regression runs of the fuzz tests, which accept
 * both outcomes, would not notice.
 */
class SeedsTest {

  @Test
  void tableSeedsRead() throws IOException {
    check("TableFuzzTestInputs/intervalTable", IntervalTable::read);
    check("TableFuzzTestInputs/thresholdTable", ThresholdTable::read);
    check("TableFuzzTestInputs/targetTable", TargetTable::read);
  }

  @Test
  void profileSeedsRead() throws IOException {
    check("ProfileFuzzTestInputs/demandProfile", DemandProfile::read);
  }

  @Test
  void modelSeedsRead() throws IOException {
    check("ModelFuzzTestInputs/predictorModel", PredictorModel::read);
  }

  @Test
  void traceSeedsRead() throws IOException {
    var analyzer = IndexAnalyzer.ENGLISH.create();
    for (TraceFormat format : TraceFormat.values()) {
      check(
          "TraceFuzzTestInputs/" + format.name().toLowerCase(java.util.Locale.ROOT),
          f -> QueryTrace.read(f, format, analyzer, false));
    }
    for (Path seed : seeds("TraceFuzzTestInputs/detect")) {
      String name = seed.getFileName().toString();
      TraceFormat expected =
          name.startsWith("tasks")
              ? TraceFormat.LUCENEUTIL
              : name.startsWith("topics") ? TraceFormat.TREC : TraceFormat.NQ;
      assertTrue(expected == TraceFormat.detect(seed), name + " detected as " + expected);
    }
  }

  private static void check(String dir, FuzzFiles.Reader<?> reader) throws IOException {
    List<Path> seeds = seeds(dir);
    assertFalse(seeds.isEmpty(), "no seeds in " + dir);
    for (Path seed : seeds) {
      if (seed.getFileName().toString().startsWith("bad-")) {
        IOException e = assertThrows(IOException.class, () -> reader.read(seed), seed.toString());
        FuzzFiles.assertNamesFile(seed, e);
      } else {
        assertNotNull(reader.read(seed), seed.toString());
      }
    }
  }

  private static List<Path> seeds(String dir) throws IOException {
    try {
      Path root = Path.of(SeedsTest.class.getResource(dir).toURI());
      try (Stream<Path> files = Files.list(root)) {
        return files.filter(Files::isRegularFile).sorted().toList();
      }
    } catch (URISyntaxException | NullPointerException e) {
      throw new IOException("no seed directory " + dir, e);
    }
  }
}
