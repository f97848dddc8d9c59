package dev.tailor.corpora.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.core.json.JsonFile;
import dev.tailor.corpora.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
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
   * @throws BadInputException if the directory has no manifest
   * @throws IOException if the manifest is not JSON or not a valid manifest, naming the file, the
   *     field and what was expected
   */
  public static IndexManifest read(Path indexDir) throws IOException {
    Path file = indexDir.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      throw new BadInputException(
          indexDir,
          "not a Tailor index: "
              + FILE_NAME
              + " is missing (build one with ./tailor index --corpus ... --out "
              + indexDir
              + ")");
    }
    JsonFields fields = new JsonFields(file);
    JsonNode root = fields.root(JsonFile.readTree(file));
    long version = fields.integer(root, "formatVersion", "", 1);
    if (version != FORMAT_VERSION) {
      throw fields.problem("formatVersion", "expected " + FORMAT_VERSION + ", got " + version);
    }
    String analyzerName = fields.text(root, "analyzer", "");
    IndexAnalyzer analyzer = IndexAnalyzer.byName(analyzerName);
    if (analyzer == null) {
      throw fields.problem(
          "analyzer", "unknown analyzer '" + analyzerName + "'; known: english, standard");
    }
    JsonNode segs = fields.array(root, "segments", "");
    List<Segment> segments = new ArrayList<>();
    for (int i = 0; i < segs.size(); i++) {
      String at = "segments[" + i + "]";
      JsonNode s = fields.objectAt(segs, i, at);
      segments.add(
          new Segment(
              fields.text(s, "name", at + "."),
              fields.smallInteger(s, "docs", at + ".", 0),
              fields.integer(s, "bytes", at + ".", 0)));
    }
    return new IndexManifest(
        fields.text(root, "source", ""),
        fields.text(root, "sourceLabel", ""),
        fields.integer(root, "docCount", "", 0),
        segments,
        analyzer,
        fields.text(root, "luceneVersion", ""),
        fields.text(root, "builtAt", ""),
        fields.nonNegative(root, "buildSeconds", ""));
  }

  /** Writes the manifest into an index directory, atomically. */
  void write(Path indexDir) throws IOException {
    ObjectNode root = JsonFile.mapper().createObjectNode();
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
    JsonFile.writeAtomically(indexDir.resolve(FILE_NAME), root);
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
