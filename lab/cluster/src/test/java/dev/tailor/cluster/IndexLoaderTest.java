package dev.tailor.cluster;

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
    JsonNode def =
        IndexLoader.definition(new IndexShape(4, 1, 500, null), "wikipedia-summaries", 5000);
    JsonNode index = def.path("settings").path("index");
    assertEquals(4, index.path("number_of_shards").asInt());
    assertEquals(1, index.path("number_of_replicas").asInt());
    assertTrue(index.path("merge.policy.segments_per_tier").isMissingNode(), "OpenSearch's own");
    JsonNode mappings = def.path("mappings");
    assertEquals("english", mappings.path("properties").path("body").path("analyzer").asText());
    assertEquals("text", mappings.path("properties").path("title").path("type").asText());
    assertEquals("wikipedia-summaries", mappings.path("_meta").path("corpus").asText());
    assertEquals(5000, mappings.path("_meta").path("limit").asLong());
    assertEquals(500, mappings.path("_meta").path("refresh_every").asInt());
    JsonNode tiers =
        IndexLoader.definition(new IndexShape(4, 1, 500, 50), "c", 1)
            .path("settings")
            .path("index");
    assertEquals(50, tiers.path("merge.policy.segments_per_tier").asInt());
  }

  @Test
  void aBadShapeIsRefusedNamingTheOption() {
    assertMessage("--shards: 0", () -> new IndexShape(0, 1, 1, null));
    assertMessage("--replicas: -1", () -> new IndexShape(1, -1, 1, null));
    assertMessage("--refresh-every: 0", () -> new IndexShape(1, 1, 0, null));
    assertMessage("--segments-per-tier: 1", () -> new IndexShape(1, 1, 1, 1));
  }

  private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable e) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().contains(expected), x.getMessage());
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
