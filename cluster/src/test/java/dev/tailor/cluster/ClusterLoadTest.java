package dev.tailor.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.load.Sweep;
import dev.tailor.sim.arrival.SweepPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterLoadTest {

  @TempDir Path dir;

  private static final ClusterLoad.Settings SETTINGS =
      new ClusterLoad.Settings(
          "tailor",
          new IndexShape(4, 1, 1000, null),
          Long.MAX_VALUE,
          false,
          null,
          0,
          Duration.ofSeconds(1));

  private static Sweep.Plan plan(List<String> policies) {
    return new Sweep.Plan(
        policies,
        List.of(5.0),
        SweepPlan.timed("poisson", 1, 2_000_000_000L, 0),
        100,
        0,
        List.of());
  }

  /** A cluster recorded under the temporary directory whose nodes were never started. */
  private Cluster recorded(boolean plugin) throws IOException {
    new ClusterLayout(dir, "3.8.0", "tailor", 1, 29200, 29300, "512m", plugin).write();
    return Cluster.recorded(dir, Path.of("/jdk"), line -> {});
  }

  @Test
  void theConfigurationsAreSeqOpenSearchAndEachTailorPolicyOnce() {
    assertEquals(
        List.of("seq", "opensearch", "fixed:2"), ClusterLoad.configurations("fixed:2,seq,fixed:2"));
  }

  @Test
  void badSettingsAreRefusedNamingTheOption() {
    IllegalArgumentException slices =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ClusterLoad.Settings("i", SETTINGS.shape(), 1, false, null, -1, null));
    assertTrue(slices.getMessage().contains("--slices: -1"), slices.getMessage());
    IllegalArgumentException queries =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ClusterLoad.Settings("i", SETTINGS.shape(), 1, false, 0, 0, null));
    assertTrue(queries.getMessage().contains("--queries: 0"), queries.getMessage());
  }

  @Test
  void tailorsPoliciesNeedAClusterWithThePlugin() throws IOException {
    Cluster cluster = recorded(false);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ClusterLoad(cluster, SETTINGS, plan(List.of("seq", "fixed:2")), line -> {}));
    assertTrue(e.getMessage().contains("need the plugin"), e.getMessage());
  }

  @Test
  void aClusterWhoseNodesAreDownIsRefusedSayingHowToStartIt() throws IOException {
    Cluster cluster = recorded(true);
    IOException e =
        assertThrows(
            IOException.class,
            () -> new ClusterLoad(cluster, SETTINGS, plan(List.of("seq")), line -> {}));
    assertTrue(e.getMessage().contains("./tailor cluster up"), e.getMessage());
  }
}
