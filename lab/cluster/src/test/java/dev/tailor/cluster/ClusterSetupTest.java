package dev.tailor.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterSetupTest {

  @TempDir Path dir;

  private ClusterLayout layout(boolean plugin) {
    return new ClusterLayout(dir, "3.8.0", "tailor", 2, 9200, 9300, "512m", plugin);
  }

  @Test
  void aMissingPluginZipSaysHowToBuildIt() {
    ClusterSetup built = new ClusterSetup(layout(true), null, false, null, null);
    IOException e = assertThrows(IOException.class, () -> built.pluginZip(dir));
    assertTrue(e.getMessage().contains("./mvnw -pl opensearch-plugin -am package"), e.getMessage());
    assertTrue(e.getMessage().contains("--no-plugin"), e.getMessage());
    ClusterSetup given = new ClusterSetup(layout(true), dir.resolve("nope.zip"), false, null, null);
    IOException missing = assertThrows(IOException.class, () -> given.pluginZip(dir));
    assertTrue(
        missing.getMessage().contains("--plugin " + dir.resolve("nope.zip")), missing.getMessage());
  }

  @Test
  void thePluginModulesZipIsFoundWhereItsBuildLeavesIt() throws IOException {
    Path target = Files.createDirectories(dir.resolve(ClusterSetup.PLUGIN_TARGET));
    Path zip = Files.writeString(target.resolve("tailor-opensearch-0.1.0-SNAPSHOT.zip"), "zip");
    ClusterSetup setup = new ClusterSetup(layout(true), null, false, null, null);
    assertEquals(zip, setup.pluginZip(dir));
    Files.writeString(target.resolve("tailor-opensearch-0.2.0.zip"), "zip");
    IOException two = assertThrows(IOException.class, () -> setup.pluginZip(dir));
    assertTrue(two.getMessage().contains("several plugin zips"), two.getMessage());
  }

  @Test
  void withoutThePluginNoZipIsLookedForAndNoneMayBeGiven() throws IOException {
    assertNull(new ClusterSetup(layout(false), null, false, null, null).pluginZip(dir));
    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ClusterSetup(layout(false), dir.resolve("p.zip"), false, null, null));
    assertTrue(both.getMessage().contains("--plugin and --no-plugin contradict"));
    IllegalArgumentException workers =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ClusterSetup(layout(false), null, false, 4, null));
    assertTrue(workers.getMessage().contains("--no-plugin"), workers.getMessage());
  }
}
