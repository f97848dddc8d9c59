package dev.tailor.corpora.linedocs;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.core.json.JsonFile;
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

  private static final TypeReference<Map<String, Object>> GENERATOR = new TypeReference<>() {};

  /** The metadata file of a line-docs file. */
  public static Path fileFor(Path lineDocs) {
    return lineDocs.resolveSibling(lineDocs.getFileName() + ".meta.json");
  }

  /**
   * Reads the metadata of a line-docs file, or null if it has none.
   *
   * @throws IOException if it is not JSON or not valid metadata, naming the file, the field and
   *     what was expected
   */
  public static CorpusMetadata readFor(Path lineDocs) throws IOException {
    Path file = fileFor(lineDocs);
    if (!Files.exists(file)) {
      return null;
    }
    JsonFields fields = new JsonFields(file);
    JsonNode root = fields.root(JsonFile.readTree(file));
    String label = fields.text(root, "label", "");
    if (label.isBlank()) {
      throw fields.problem("label", "expected a non-empty string");
    }
    JsonNode generator = fields.optionalObject(root, "generator", "");
    return new CorpusMetadata(
        label,
        fields.bool(root, "synthetic", ""),
        fields.optionalText(root, "trainedOn", ""),
        fields.integer(root, "docs", "", 0),
        generator == null ? null : JsonFile.mapper().convertValue(generator, GENERATOR));
  }

  /** Writes this as the metadata of {@code lineDocs}, atomically. */
  public void writeFor(Path lineDocs) throws IOException {
    JsonFile.writeAtomically(fileFor(lineDocs), this);
  }
}
