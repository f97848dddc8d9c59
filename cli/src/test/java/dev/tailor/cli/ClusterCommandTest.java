package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.cluster.ClusterLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterCommandTest {

  @TempDir Path dir;

  @Test
  void commandsOnAClusterNeverStartedSayHowToStartOne() {
    for (String command : new String[] {"down", "status"}) {
      Cli cli = new Cli();
      assertEquals(1, cli.run("cluster", command, "--data-dir", dir.toString()));
      assertTrue(cli.err().contains("tailor cluster " + command + ":"), cli.err());
      assertTrue(cli.err().contains("./tailor cluster up"), cli.err());
    }
    Cli load = new Cli();
    assertEquals(1, load.run("cluster", "load", "--data-dir", dir.toString(), "--rps", "5"));
    assertTrue(load.err().contains("./tailor cluster up"), load.err());
  }

  @Test
  void badUpOptionsAreRefusedBeforeAnythingIsFetched() {
    Cli cli = new Cli();
    assertEquals(
        1, cli.run("cluster", "up", "--data-dir", dir.toString(), "--no-plugin", "--heap", "lots"));
    assertTrue(cli.err().contains("--heap: 'lots'"), cli.err());
    Cli both = new Cli();
    assertTrue(
        both.run(
                "cluster",
                "up",
                "--data-dir",
                dir.toString(),
                "--no-plugin",
                "--plugin",
                dir.resolve("p.zip").toString())
            != 0);
    assertTrue(both.err().contains("--plugin and --no-plugin contradict"), both.err());
    Cli workers = new Cli();
    assertEquals(
        1,
        workers.run(
            "cluster", "up", "--data-dir", dir.toString(), "--no-plugin", "--tailor-workers", "4"));
    assertTrue(workers.err().contains("--no-plugin"), workers.err());
    assertTrue(Files.notExists(dir.resolve("opensearch").resolve(ClusterLayout.STATE_FILE)));
  }

  @Test
  void loadOptionsTheClusterCannotHonourAreRefused() throws IOException {
    new ClusterLayout(dir.resolve("opensearch"), "3.8.0", "tailor", 1, 29200, 29300, "512m", false)
        .write();
    Cli degree = new Cli();
    assertTrue(
        degree.run(
                "cluster", "load", "--data-dir", dir.toString(), "--rps", "5", "--max-degree", "2")
            != 0);
    assertTrue(degree.err().contains("--max-degree"), degree.err());
    Cli policies = new Cli();
    assertTrue(
        policies.run(
                "cluster",
                "load",
                "--data-dir",
                dir.toString(),
                "--rps",
                "5",
                "--policies",
                "seq,fixed:2")
            != 0);
    assertTrue(policies.err().contains("need the plugin"), policies.err());
    Cli notRunning = new Cli();
    assertEquals(
        1,
        notRunning.run(
            "cluster", "load", "--data-dir", dir.toString(), "--rps", "5", "--policies", "seq"));
    assertTrue(notRunning.err().contains("the cluster is not running"), notRunning.err());
  }
}
