package dev.tailor.cluster;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link Cluster#up} makes of a {@link ClusterLayout}: whether the node homes are unpacked
 * afresh, which zip of Tailor's plugin is installed, and the plugin's node settings.
 *
 * @param layout the cluster; Tailor's plugin is installed where its {@code plugin()} says so
 * @param plugin the plugin's zip, or null for the one the plugin module's build left under the
 *     checkout ({@value #PLUGIN_TARGET})
 * @param fresh whether to delete the node homes (and their data) and unpack them again
 * @param tailorWorkers the plugin's {@code tailor.workers}, or null to leave its default
 * @param tailorQueue the plugin's {@code tailor.queue_capacity}, or null to leave its default
 */
public record ClusterSetup(
    ClusterLayout layout, Path plugin, boolean fresh, Integer tailorWorkers, Integer tailorQueue) {

  /** Where the plugin module's build leaves its zip, under the checkout. */
  public static final String PLUGIN_TARGET = "opensearch-plugin/target";

  /**
   * Checks the setup before anything is fetched.
   *
   * @throws IllegalArgumentException if a plugin zip is given for a layout without the plugin, or
   *     the plugin's node settings are given without it or are below 1
   */
  public ClusterSetup {
    if (plugin != null && !layout.plugin()) {
      throw new IllegalArgumentException("--plugin and --no-plugin contradict");
    }
    NodeSettings.opensearchYml(layout, 1, tailorWorkers, tailorQueue);
  }

  /**
   * The plugin zip to install: the one given, else the one the plugin module's build left under
   * {@code projectRoot}; null where the layout runs without the plugin.
   *
   * @throws IOException if there is none, saying how to build it
   */
  Path pluginZip(Path projectRoot) throws IOException {
    if (!layout.plugin()) {
      return null;
    }
    if (plugin != null) {
      if (!Files.isRegularFile(plugin)) {
        throw new IOException("--plugin " + plugin + ": no such file");
      }
      return plugin.toAbsolutePath();
    }
    Path dir = projectRoot.resolve(PLUGIN_TARGET);
    List<Path> found = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (DirectoryStream<Path> zips = Files.newDirectoryStream(dir, "tailor-opensearch-*.zip")) {
        zips.forEach(found::add);
      }
    }
    if (found.size() != 1) {
      throw new IOException(
          (found.isEmpty()
                  ? "no plugin zip (tailor-opensearch-VERSION.zip) in " + dir
                  : "several plugin zips in " + dir + ": " + found)
              + "; build it with ./mvnw -pl opensearch-plugin -am package, or give one with --plugin"
              + " FILE, or start OpenSearch without it (--no-plugin)");
    }
    return found.get(0);
  }
}
