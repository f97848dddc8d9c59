package dev.tailor.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LauncherTest {

  @TempDir Path dir;

  private final ClusterLayout layout =
      new ClusterLayout(Path.of("/d/opensearch"), "3.8.0", "tailor", 2, 9200, 9300, "512m", true);

  @Test
  void asRootANodeStartsInAUserNamespaceAsAnOrdinaryUser() {
    Launcher root = new Launcher(Path.of("/jdk"), true);
    assertEquals(
        List.of(
            "unshare",
            "--user",
            "--map-user=1000",
            "--map-group=1000",
            "/d/opensearch/3.8.0/node-2/bin/opensearch",
            "-d",
            "-p",
            "/d/opensearch/3.8.0/node-2/opensearch.pid"),
        root.startNode(layout, 2));
  }

  @Test
  void asAnyOtherUserANodeStartsDirectly() {
    Launcher user = new Launcher(Path.of("/jdk"), false);
    assertEquals(
        List.of(
            "/d/opensearch/3.8.0/node-1/bin/opensearch",
            "-d",
            "-p",
            "/d/opensearch/3.8.0/node-1/opensearch.pid"),
        user.startNode(layout, 1));
  }

  @Test
  void thePluginIsInstalledWithoutQuestionsFromAFileUrlAndNotInTheNamespace() {
    Launcher root = new Launcher(Path.of("/jdk"), true);
    assertEquals(
        List.of(
            "/h/bin/opensearch-plugin", "install", "--batch", "file:///p/tailor-opensearch.zip"),
        root.installPlugin(Path.of("/h"), Path.of("/p/tailor-opensearch.zip")));
  }

  @Test
  void aScriptSeesOpenSearchsJdkAndAFailureShowsTheEndOfItsOutput() throws IOException {
    Path script = dir.resolve("script.sh");
    Files.writeString(script, "echo \"jdk=$OPENSEARCH_JAVA_HOME\"\necho failing\nexit 3\n");
    Path output = dir.resolve("out.txt");
    Launcher launcher = new Launcher(Path.of("/some/jdk"), false);
    IOException e =
        assertThrows(
            IOException.class, () -> launcher.run(List.of("sh", script.toString()), dir, output));
    assertTrue(e.getMessage().contains("failed with status 3"), e.getMessage());
    assertTrue(e.getMessage().contains("jdk=/some/jdk"), e.getMessage());
    assertTrue(e.getMessage().contains("failing"), e.getMessage());
  }

  @Test
  void variablesMappedToNullAreRemoved() throws IOException {
    Path output = dir.resolve("out.txt");
    Map<String, String> env = new HashMap<>();
    env.put("HOME", null);
    Launcher.run(List.of("sh", "-c", "echo \"[${HOME:-unset}]\""), dir, env, output);
    assertEquals("[unset]", Files.readString(output).trim());
  }
}
