package dev.tailor.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterLayoutTest {

  @TempDir Path dir;

  private ClusterLayout layout(int nodes, int http, int transport, String heap) {
    return new ClusterLayout(dir, "3.8.0", "tailor", nodes, http, transport, heap, true);
  }

  @Test
  void eachNodeHasItsHomePortsAndFilesUnderTheVersion() {
    ClusterLayout l = layout(2, 9200, 9300, "512m");
    assertEquals(dir.resolve("3.8.0").resolve("node-2"), l.home(2));
    assertEquals(9201, l.httpPort(2));
    assertEquals(9301, l.transportPort(2));
    assertEquals(l.home(1).resolve("opensearch.pid"), l.pidFile(1));
    assertEquals(l.home(2).resolve("logs").resolve("tailor.log"), l.log(2));
    assertEquals(
        List.of(URI.create("http://127.0.0.1:9200"), URI.create("http://127.0.0.1:9201")),
        l.httpAddresses());
  }

  @Test
  void badOptionsAreRefusedNamingTheOptionAndTheValue() {
    assertMessage(
        "--opensearch-version: '3.8' is not an OpenSearch version",
        () -> new ClusterLayout(dir, "3.8", "tailor", 2, 9200, 9300, "512m", true));
    assertMessage("--nodes: 0", () -> layout(0, 9200, 9300, "512m"));
    assertMessage("--http-port: 80", () -> layout(2, 80, 9300, "512m"));
    assertMessage("--transport-port: 65535", () -> layout(2, 9200, 65535, "512m"));
    assertMessage("overlap", () -> layout(2, 9200, 9201, "512m"));
    assertMessage("--heap: '512'", () -> layout(2, 9200, 9300, "512"));
    assertMessage(
        "--cluster-name: 'My Cluster'",
        () -> new ClusterLayout(dir, "3.8.0", "My Cluster", 2, 9200, 9300, "1g", true));
  }

  private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable e) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().contains(expected), x.getMessage());
  }

  @Test
  void theRecordReadsBackAsWritten() throws IOException {
    ClusterLayout l = layout(3, 9400, 9500, "1g").withPlugin(false);
    l.write();
    assertEquals(l, ClusterLayout.read(dir));
    List<String> fields = new ArrayList<>();
    new ObjectMapper()
        .readTree(dir.resolve(ClusterLayout.STATE_FILE).toFile())
        .fieldNames()
        .forEachRemaining(fields::add);
    assertEquals(
        List.of("version", "name", "nodes", "httpPort", "transportPort", "heap", "plugin"), fields);
  }

  @Test
  void aMissingOrBrokenRecordSaysWhichFileAndWhatToDo() throws IOException {
    IOException none = assertThrows(IOException.class, () -> ClusterLayout.read(dir));
    assertTrue(none.getMessage().contains("./tailor cluster up"), none.getMessage());
    Files.writeString(dir.resolve(ClusterLayout.STATE_FILE), "{\"version\":\"3.8.0\"}");
    IOException partial = assertThrows(IOException.class, () -> ClusterLayout.read(dir));
    assertTrue(partial.getMessage().contains("no field 'name'"), partial.getMessage());
    assertTrue(partial.getMessage().contains(ClusterLayout.STATE_FILE), partial.getMessage());
    Files.writeString(
        dir.resolve(ClusterLayout.STATE_FILE),
        "{\"version\":\"3.8.0\",\"name\":\"t\",\"nodes\":2,\"httpPort\":9200,"
            + "\"transportPort\":9300,\"heap\":\"huge\",\"plugin\":true}");
    IOException bad = assertThrows(IOException.class, () -> ClusterLayout.read(dir));
    assertTrue(bad.getMessage().contains("--heap: 'huge'"), bad.getMessage());
  }
}
