package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.Policy;
import dev.tailor.core.policy.PolicyRegistry;
import dev.tailor.core.policy.PolicySpec;
import org.junit.jupiter.api.Test;

class AutoSettingsTest {

  @Test
  void parsesAndPrintsOnlyWhatDiffers() {
    AutoSettings s = AutoSettings.parse("period=30s, requests=500,probes=0.1");
    assertEquals(30_000_000_000L, s.periodNanos());
    assertEquals(500, s.requests());
    assertEquals(0.1, s.probeShare());
    assertEquals("period=30s,requests=500,probes=0.1", s.args());
    assertEquals(AutoSettings.DEFAULTS, AutoSettings.parse(""));
  }

  @Test
  void inlineRebuildsAreTheSimulatorsNotASpecifications() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PolicyRegistry.of("auto:requests=500,inline"));
    assertTrue(e.getMessage().contains("AutoPolicy.forSimulation"), e.getMessage());
    assertTrue(e.getMessage().startsWith("bad policy 'auto:requests=500,inline': inline:"));
    // The simulator's policy has the same settings and spec as the served one.
    AutoSettings settings = AutoSettings.parse("requests=500");
    try (AutoPolicy simulated = AutoPolicy.forSimulation(settings);
        AutoPolicy served = AutoPolicy.create(settings)) {
      assertEquals(served.spec(), simulated.spec());
      assertEquals(served.identity(), simulated.identity());
    }
  }

  @Test
  void errorsNameTheSettingAndWhatWasExpected() {
    assertEquals(
        "unknown setting 'perod' (keys: samples, period, requests, probes, cpu, timeout,"
            + " requests-per-point, seeds, iterations, max-degree)",
        assertThrows(IllegalArgumentException.class, () -> AutoSettings.parse("perod=1s"))
            .getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> AutoSettings.parse("period=soon"))
            .getMessage()
            .startsWith("period: 'soon' is not a duration"));
    assertEquals(
        "requests: expected a number, got 'many'",
        assertThrows(IllegalArgumentException.class, () -> AutoSettings.parse("requests=many"))
            .getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> AutoSettings.parse("probes=0.9"))
            .getMessage()
            .startsWith("probes:"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> AutoSettings.parse("cpu=0"))
            .getMessage()
            .startsWith("cpu:"));
  }

  @Test
  void theRegistryFindsAutoAndKeepsItsSettingsTogetherInAList() {
    try (Policy p = PolicyRegistry.of("auto:requests=500,period=1m")) {
      assertEquals("auto:period=60s,requests=500", p.spec());
      assertEquals(PolicySpec.of("auto", "period=60s", "requests=500"), p.identity());
      assertEquals(p.identity(), PolicySpec.parse(p.spec()));
    }
    assertEquals(
        java.util.List.of("seq", "auto:requests=500,period=1m", "fixed:2"),
        PolicyRegistry.standard().splitList("seq,auto:requests=500,period=1m,fixed:2"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of("auto:bogus=1"))
            .getMessage()
            .contains("unknown setting 'bogus'"));
  }
}
