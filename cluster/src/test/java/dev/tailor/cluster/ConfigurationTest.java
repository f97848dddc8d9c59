package dev.tailor.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigurationTest {

  @Test
  void seqAndOpenSearchAlwaysRunThenEachTailorPolicyOnce() {
    List<Configuration> configs = Configuration.parse("rampup:10ms,4,seq,fixed:2,rampup:10ms,4");
    assertEquals(
        List.of(
            new Configuration("seq", false),
            new Configuration("opensearch", false),
            new Configuration("rampup:10ms,4", true),
            new Configuration("fixed:2", true)),
        configs);
    assertEquals(2, Configuration.parse("opensearch,seq").size());
  }

  @Test
  void anUnknownPolicyIsRefusedSayingWhatIsKnown() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Configuration.parse("seq,nosuch:3"));
    assertTrue(e.getMessage().contains("nosuch"), e.getMessage());
  }

  @Test
  void eachConfigurationSetsTheModeAndOnlyTailorsSetThePolicy() {
    JsonNode seq = new Configuration("seq", false).settings(true, 4).path("persistent");
    assertEquals("none", seq.path("search.concurrent_segment_search.mode").asText());
    assertTrue(seq.path("tailor.policy").isMissingNode());

    JsonNode os = new Configuration("opensearch", false).settings(false, 4).path("persistent");
    assertEquals("all", os.path("search.concurrent_segment_search.mode").asText());
    assertTrue(os.path("search.concurrent.max_slice_count").isNull(), "the default slice count");
    assertTrue(os.path("tailor.policy").isMissingNode());

    JsonNode t = new Configuration("fixed:2", true).settings(true, 4).path("persistent");
    assertEquals("all", t.path("search.concurrent_segment_search.mode").asText());
    assertEquals("fixed:2", t.path("tailor.policy").asText());
    assertEquals(4, t.path("search.concurrent.max_slice_count").asInt());
    JsonNode defaultSlices = new Configuration("fixed:2", true).settings(true, 0);
    assertTrue(defaultSlices.path("persistent").path("search.concurrent.max_slice_count").isNull());

    assertThrows(
        IllegalStateException.class, () -> new Configuration("fixed:2", true).settings(false, 0));
  }

  @Test
  void theResetClearsThePolicyOnlyWhereThePluginKnowsIt() {
    assertTrue(Configuration.reset(true).path("persistent").path("tailor.policy").isNull());
    assertTrue(Configuration.reset(false).path("persistent").path("tailor.policy").isMissingNode());
    assertTrue(
        Configuration.reset(false)
            .path("persistent")
            .path("search.concurrent_segment_search.mode")
            .isNull());
  }
}
