package dev.tailor.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigurationTest {

  @Test
  void openSearchsThreeAlwaysRunThenEachTailorPolicyOnceThenTheDecidersOnes() {
    List<Configuration> configs =
        Configuration.parse("rampup:10ms,4,seq,fixed:2,rampup:10ms,4", "steal-first,fixed:2");
    assertEquals(
        List.of(
            new Configuration("seq", "none", null),
            new Configuration("opensearch", "all", null),
            new Configuration("opensearch-auto", "auto", null),
            new Configuration("rampup:10ms,4", "all", "rampup:10ms,4"),
            new Configuration("fixed:2", "all", "fixed:2"),
            new Configuration("decider:steal-first", "auto", "steal-first"),
            new Configuration("decider:fixed:2", "auto", "fixed:2")),
        configs);
    assertEquals(3, Configuration.parse("opensearch,seq", null).size());
    assertEquals(Configuration.of("decider:fixed:2"), configs.get(6), "a report name reads back");
  }

  @Test
  void anUnknownPolicyIsRefusedSayingWhatIsKnown() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Configuration.parse("seq,nosuch:3", null));
    assertTrue(e.getMessage().contains("nosuch"), e.getMessage());
  }

  @Test
  void eachConfigurationSetsTheModeAndOnlyTailorsSwitchTailorOn() {
    JsonNode seq = Configuration.of("seq").settings(true, 4).path("persistent");
    assertEquals("none", seq.path("search.concurrent_segment_search.mode").asText());
    assertTrue(seq.path("tailor.policy").isMissingNode());
    assertFalse(seq.path("tailor.enabled").asBoolean(true), "OpenSearch's own, on its own pool");

    JsonNode os = Configuration.of("opensearch").settings(false, 4).path("persistent");
    assertEquals("all", os.path("search.concurrent_segment_search.mode").asText());
    assertTrue(os.path("search.concurrent.max_slice_count").isNull(), "the default slice count");
    assertTrue(os.path("tailor.enabled").isMissingNode(), "no plugin: no Tailor setting");

    JsonNode auto = Configuration.of("opensearch-auto").settings(true, 4).path("persistent");
    assertEquals("auto", auto.path("search.concurrent_segment_search.mode").asText());
    assertFalse(auto.path("tailor.enabled").asBoolean(true));

    JsonNode t = Configuration.of("fixed:2").settings(true, 4).path("persistent");
    assertEquals("all", t.path("search.concurrent_segment_search.mode").asText());
    assertEquals("fixed:2", t.path("tailor.policy").asText());
    assertTrue(t.path("tailor.enabled").asBoolean());
    assertEquals(4, t.path("search.concurrent.max_slice_count").asInt());
    JsonNode defaultSlices = Configuration.of("fixed:2").settings(true, 0);
    assertTrue(defaultSlices.path("persistent").path("search.concurrent.max_slice_count").isNull());

    JsonNode d = Configuration.of("decider:steal-first").settings(true, 4).path("persistent");
    assertEquals("auto", d.path("search.concurrent_segment_search.mode").asText());
    assertEquals("steal-first", d.path("tailor.policy").asText());
    assertTrue(d.path("tailor.decider.enabled").asBoolean());

    assertThrows(IllegalStateException.class, () -> Configuration.of("fixed:2").settings(false, 0));
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
