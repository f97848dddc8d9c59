package dev.tailor.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistributionTest {

  @TempDir Path dir;

  /** A zip of {@code name -> (mode, text)} entries; a name ending in '/' is a directory. */
  private Path zip(String file, Object... entries) throws IOException {
    Path zip = dir.resolve(file);
    try (OutputStream os = Files.newOutputStream(zip);
        ZipArchiveOutputStream out = new ZipArchiveOutputStream(os)) {
      for (int i = 0; i < entries.length; i += 3) {
        ZipArchiveEntry e = new ZipArchiveEntry((String) entries[i]);
        e.setUnixMode((Integer) entries[i + 1]);
        out.putArchiveEntry(e);
        out.write(((String) entries[i + 2]).getBytes(StandardCharsets.UTF_8));
        out.closeArchiveEntry();
      }
    }
    return zip;
  }

  @Test
  void unpackingDropsTheTopDirectoryAndKeepsTheScriptsExecutable() throws IOException {
    Path zip =
        zip(
            "os.zip",
            "opensearch-3.8.0/",
            040755,
            "",
            "opensearch-3.8.0/bin/opensearch",
            0100755,
            "#!/bin/sh\n",
            "opensearch-3.8.0/config/opensearch.yml",
            0100644,
            "# stock\n");
    Path home = dir.resolve("node-1");
    Distribution.unpack(zip, home);
    Path script = home.resolve("bin").resolve("opensearch");
    assertEquals("#!/bin/sh\n", Files.readString(script));
    assertTrue(Files.getPosixFilePermissions(script).contains(PosixFilePermission.OWNER_EXECUTE));
    Path yml = home.resolve("config").resolve("opensearch.yml");
    assertFalse(Files.getPosixFilePermissions(yml).contains(PosixFilePermission.OWNER_EXECUTE));
    try (var left = Files.list(dir)) {
      assertEquals(
          List.of("node-1", "os.zip"), left.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void anEntryThatWouldLandOutsideTheHomeIsRefusedAndNothingIsLeft() throws IOException {
    Path zip = zip("evil.zip", "opensearch-3.8.0/../../escaped", 0100644, "x");
    Path home = dir.resolve("node-1");
    IOException e = assertThrows(IOException.class, () -> Distribution.unpack(zip, home));
    assertTrue(e.getMessage().contains("would land outside"), e.getMessage());
    assertFalse(Files.exists(home));
    assertFalse(Files.exists(dir.getParent().resolve("escaped")));
  }

  @Test
  void permissionsFollowTheModesNineBits() {
    assertEquals(
        java.util.EnumSet.of(
            PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE,
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.OTHERS_EXECUTE),
        Distribution.permissions(0100741));
  }

  @Test
  void theZipIsCopiedByMavensDependencyPluginFromItsCoordinates() {
    assertEquals(
        List.of(
            "/p/mvnw",
            "-q",
            "-B",
            "-N",
            "org.apache.maven.plugins:maven-dependency-plugin:3.9.0:copy",
            "-Dartifact=org.opensearch.distribution.integ-test-zip:opensearch:3.8.0:zip",
            "-DoutputDirectory=/tmp/x",
            "-Dmdep.overWriteReleases=true"),
        Distribution.fetchCommand(Path.of("/p/mvnw"), "3.8.0", Path.of("/tmp/x")));
  }

  @Test
  void aCachedDistributionIsNotFetchedAgain() throws IOException {
    ClusterLayout layout = new ClusterLayout(dir, "3.8.0", "tailor", 2, 9200, 9300, "512m", false);
    Files.createDirectories(layout.versionDir());
    Files.writeString(Distribution.zip(layout), "cached");
    Files.writeString(layout.versionDir().resolve(Distribution.MARKER), "package ...");
    // No Maven wrapper in this project root: a fetch would fail.
    assertEquals(
        Distribution.zip(layout), Distribution.fetch(layout, dir.resolve("nowhere"), line -> {}));
  }
}
