package dev.tailor.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tailor.corpora.CorpusDoc;
import org.junit.jupiter.api.Test;

class IndexLoaderTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theIndexHasTheShardsReplicasEnglishTextAndRecordsWhatItHolds() {
    JsonNode def = IndexLoader.definition(4, 1, "wikipedia-summaries", 5000);
    assertEquals(4, def.path("settings").path("index").path("number_of_shards").asInt());
    assertEquals(1, def.path("settings").path("index").path("number_of_replicas").asInt());
    JsonNode mappings = def.path("mappings");
    assertEquals("english", mappings.path("properties").path("body").path("analyzer").asText());
    assertEquals("text", mappings.path("properties").path("title").path("type").asText());
    assertEquals("wikipedia-summaries", mappings.path("_meta").path("corpus").asText());
    assertEquals(5000, mappings.path("_meta").path("limit").asLong());
  }

  @Test
  void badShardsOrReplicasAreRefusedNamingTheOption() {
    IllegalArgumentException s =
        assertThrows(IllegalArgumentException.class, () -> IndexLoader.definition(0, 1, "c", 1));
    assertTrue(s.getMessage().contains("--shards: 0"), s.getMessage());
    IllegalArgumentException r =
        assertThrows(IllegalArgumentException.class, () -> IndexLoader.definition(1, -1, "c", 1));
    assertTrue(r.getMessage().contains("--replicas: -1"), r.getMessage());
  }

  @Test
  void eachDocumentIsAnActionLineAndASourceLineWhateverItsText() throws Exception {
    String lines =
        IndexLoader.bulkLines("idx", new CorpusDoc("A \"title\"", "", "line one\nline two", null));
    String[] parts = lines.split("\n", -1);
    assertEquals(3, parts.length, lines); // action, source, and the final newline
    assertEquals("idx", JSON.readTree(parts[0]).path("index").path("_index").asText());
    JsonNode source = JSON.readTree(parts[1]);
    assertEquals("A \"title\"", source.path("title").asText());
    assertEquals("line one\nline two", source.path("body").asText());
    assertEquals("", parts[2]);
  }
}
