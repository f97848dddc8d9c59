package dev.tailor.corpora.linedocs;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tailor.core.io.AtomicFiles;
import dev.tailor.corpora.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The metadata written beside a generated line-docs file as {@code FILE.meta.json}: what the text
 * is, so that the indexer's manifest and every report can repeat it.
 *
 * @param label the label to repeat, e.g. "synthetic, trained on wikipedia-summaries (seed 42)"
 * @param synthetic whether the text was generated
 * @param trainedOn the source the generator learnt from, or null for real text
 * @param docs the number of documents
 * @param generator how the text was made, with its parameters
 */
public record CorpusMetadata(
    String label, boolean synthetic, String trainedOn, long docs, Map<String, Object> generator) {

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** The metadata file of a line-docs file. */
  public static Path fileFor(Path lineDocs) {
    return lineDocs.resolveSibling(lineDocs.getFileName() + ".meta.json");
  }

  /** Reads the metadata of a line-docs file, or null if it has none. */
  public static CorpusMetadata readFor(Path lineDocs) throws IOException {
    Path file = fileFor(lineDocs);
    if (!Files.exists(file)) {
      return null;
    }
    try {
      CorpusMetadata m = JSON.readValue(file.toFile(), CorpusMetadata.class);
      if (m.label() == null || m.label().isBlank()) {
        throw new BadInputException(file, "field label: expected a non-empty string");
      }
      return m;
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new BadInputException(file, "invalid metadata: " + e.getOriginalMessage());
    }
  }

  /** Writes this as the metadata of {@code lineDocs}, atomically. */
  public void writeFor(Path lineDocs) throws IOException {
    Path target = fileFor(lineDocs);
    Path tmp = AtomicFiles.sibling(target, "writing");
    JSON.writeValue(tmp.toFile(), this);
    AtomicFiles.moveIntoPlace(tmp, target);
  }
}
