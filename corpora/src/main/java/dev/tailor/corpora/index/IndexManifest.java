package dev.tailor.corpora.index;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.corpora.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;

/**
 * What an index built by {@link Indexer} holds and how it was built, stored as {@value #FILE_NAME}
 * in the index directory: the source and its label (which says "synthetic" for generated text), the
 * document count, the segments with their sizes, the analyzer, and the build time. Queries against
 * the index must use {@link #analyzer()}.
 */
public final class IndexManifest {

  /** The manifest's file name inside the index directory. */
  public static final String FILE_NAME = "tailor-index.json";

  static final int FORMAT_VERSION = 1;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * One segment of the index.
   *
   * @param name Lucene's segment name
   * @param docs its document count
   * @param bytes the size of its files
   */
  public record Segment(String name, int docs, long bytes) {}

  private final String source;
  private final String sourceLabel;
  private final long docCount;
  private final List<Segment> segments;
  private final IndexAnalyzer analyzer;
  private final String luceneVersion;
  private final String builtAt;
  private final double buildSeconds;

  IndexManifest(
      String source,
      String sourceLabel,
      long docCount,
      List<Segment> segments,
      IndexAnalyzer analyzer,
      String luceneVersion,
      String builtAt,
      double buildSeconds) {
    this.source = source;
    this.sourceLabel = sourceLabel;
    this.docCount = docCount;
    this.segments = List.copyOf(segments);
    this.analyzer = analyzer;
    this.luceneVersion = luceneVersion;
    this.builtAt = builtAt;
    this.buildSeconds = buildSeconds;
  }

  /**
   * Reads the manifest of an index directory.
   *
   * @throws BadInputException if the directory has no manifest or the manifest is invalid, naming
   *     the field at fault
   */
  public static IndexManifest read(Path indexDir) throws IOException {
    Path file = indexDir.resolve(FILE_NAME);
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new BadInputException(
          indexDir,
          "not a Tailor index: "
              + FILE_NAME
              + " is missing (build one with ./tailor index --corpus ... --out "
              + indexDir
              + ")");
    } catch (JsonProcessingException e) {
      throw new BadInputException(file, "not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new BadInputException(file, "expected a JSON object");
    }
    int version = (int) number(file, root, "formatVersion");
    if (version != FORMAT_VERSION) {
      throw new BadInputException(
          file, "field formatVersion: expected " + FORMAT_VERSION + ", found " + version);
    }
    String analyzerName = text(file, root, "analyzer");
    IndexAnalyzer analyzer = IndexAnalyzer.byName(analyzerName);
    if (analyzer == null) {
      throw new BadInputException(
          file,
          "field analyzer: unknown analyzer '" + analyzerName + "'; known: english, standard");
    }
    JsonNode segs = root.get("segments");
    if (segs == null || !segs.isArray()) {
      throw new BadInputException(file, "field segments: expected an array");
    }
    List<Segment> segments = new ArrayList<>();
    for (JsonNode s : segs) {
      segments.add(
          new Segment(
              text(file, s, "name"), (int) number(file, s, "docs"), number(file, s, "bytes")));
    }
    return new IndexManifest(
        text(file, root, "source"),
        text(file, root, "sourceLabel"),
        number(file, root, "docCount"),
        segments,
        analyzer,
        text(file, root, "luceneVersion"),
        text(file, root, "builtAt"),
        root.path("buildSeconds").asDouble());
  }

  void write(Path indexDir) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", FORMAT_VERSION);
    root.put("source", source);
    root.put("sourceLabel", sourceLabel);
    root.put("docCount", docCount);
    root.put("analyzer", analyzer.id());
    root.put("analyzerClass", analyzer.className());
    root.putArray("fields").add("id").add("title").add("body").add("date");
    root.put("luceneVersion", luceneVersion);
    root.put("builtAt", builtAt);
    root.put("buildSeconds", buildSeconds);
    ArrayNode segs = root.putArray("segments");
    for (Segment s : segments) {
      segs.addObject().put("name", s.name()).put("docs", s.docs()).put("bytes", s.bytes());
    }
    Files.writeString(indexDir.resolve(FILE_NAME), JSON.writeValueAsString(root) + "\n");
  }

  private static String text(Path file, JsonNode node, String field) throws BadInputException {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual()) {
      throw new BadInputException(file, "field " + field + ": expected a string");
    }
    return v.asText();
  }

  private static long number(Path file, JsonNode node, String field) throws BadInputException {
    JsonNode v = node.get(field);
    if (v == null || !v.canConvertToLong()) {
      throw new BadInputException(file, "field " + field + ": expected an integer");
    }
    return v.asLong();
  }

  /** A new instance of the analyzer the index was built with; queries must be analyzed with it. */
  public Analyzer analyzer() {
    return analyzer.create();
  }

  /** The analyzer's short name, {@code english} or {@code standard}. */
  public String analyzerName() {
    return analyzer.id();
  }

  /** The corpus the index was built from: a file path or a corpus name. */
  public String source() {
    return source;
  }

  /**
   * The source's label, to repeat in every report that uses the index; for generated text it says
   * "synthetic" and names the source it was trained on.
   */
  public String sourceLabel() {
    return sourceLabel;
  }

  /** The number of documents. */
  public long docCount() {
    return docCount;
  }

  /** The segments in index order. */
  public List<Segment> segments() {
    return segments;
  }

  /** The Lucene version that wrote the index. */
  public String luceneVersion() {
    return luceneVersion;
  }

  /** When the build finished, ISO-8601 UTC. */
  public String builtAt() {
    return builtAt;
  }

  /** How long the build took, in seconds. */
  public double buildSeconds() {
    return buildSeconds;
  }
}
