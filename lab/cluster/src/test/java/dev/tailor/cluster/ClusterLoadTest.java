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
        List.of("seq", "opensearch", "opensearch-auto", "fixed:2", "decider:fixed:2"),
        ClusterLoad.configurations("fixed:2,seq,fixed:2", "fixed:2"));
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

  /** What a sweep of {@code policies} through a recorded cluster that is not running throws. */
  private <T extends Exception> T refused(Class<T> type, boolean plugin, String... policies)
      throws IOException {
    Cluster cluster = recorded(plugin);
    return assertThrows(
        type, () -> new ClusterLoad(cluster, SETTINGS, plan(List.of(policies)), line -> {}));
  }

  @Test
  void tailorsPoliciesNeedAClusterWithThePlugin() throws IOException {
    String message = refused(IllegalArgumentException.class, false, "seq", "fixed:2").getMessage();
    assertTrue(message.contains("need the plugin"), message);
  }

  @Test
  void aClusterWhoseNodesAreDownIsRefusedSayingHowToStartIt() throws IOException {
    String message = refused(IOException.class, true, "seq").getMessage();
    assertTrue(message.contains("./tailor cluster up"), message);
  }
}
