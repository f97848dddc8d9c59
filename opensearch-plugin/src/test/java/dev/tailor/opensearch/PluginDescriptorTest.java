package dev.tailor.opensearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opensearch.Version;
import org.opensearch.plugins.PluginInfo;
import org.opensearch.plugins.PluginsService;

/**
 * The descriptor the build puts in the plugin's zip, read by OpenSearch's own code as install and
 * node start read it: accepted by the OpenSearch it was built for, refused by another with a
 * message naming both versions (so a node given a zip for another release keeps running without it,
 * as OpenSearch refuses the install).
 */
class PluginDescriptorTest {

  private static final Path BUILT = Path.of("target/plugin-metadata/plugin-descriptor.properties");

  @TempDir Path dir;

  @Test
  void theBuiltDescriptorIsAcceptedByItsOwnRelease() throws Exception {
    Files.copy(BUILT, dir.resolve(PluginInfo.OPENSEARCH_PLUGIN_PROPERTIES));
    PluginInfo info = PluginInfo.readFromProperties(dir);
    assertEquals("tailor", info.getName());
    assertEquals(TailorPlugin.class.getName(), info.getClassname());
    PluginsService.verifyCompatibility(info);
  }

  @Test
  void aZipForAnotherReleaseIsRefusedNamingBothVersions() throws Exception {
    String other = "3.7.0";
    String text = Files.readString(BUILT);
    assertTrue(text.contains("opensearch.version=" + Version.CURRENT), text);
    Files.writeString(
        dir.resolve(PluginInfo.OPENSEARCH_PLUGIN_PROPERTIES),
        text.replace("opensearch.version=" + Version.CURRENT, "opensearch.version=" + other));
    PluginInfo info = PluginInfo.readFromProperties(dir);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PluginsService.verifyCompatibility(info));
    assertTrue(e.getMessage().contains(other), e.getMessage());
    assertTrue(e.getMessage().contains(Version.CURRENT.toString()), e.getMessage());
  }
}
