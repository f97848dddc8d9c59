package dev.tailor.cluster;

import dev.tailor.core.io.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * The OpenSearch distribution for local clusters: the integration-test zip (no bundled JDK, no
 * security plugin) from Maven Central, {@code
 * org.opensearch.distribution.integ-test-zip:opensearch: VERSION:zip}, fetched with Maven itself
 * through the project's wrapper ({@code dependency:copy}) and cached in the version's directory
 * with its licence and notice beside it (OpenSearch is Apache-2.0) and {@value #MARKER}, written
 * last: a directory without it is an interrupted fetch and is fetched again. Unpacked with Apache
 * Commons Compress, which keeps the files' Unix modes (the JDK's zip reader drops them, and the
 * scripts must stay executable).
 */
final class Distribution {

  static final String MARKER = "fetched.txt";
  static final String GROUP_ARTIFACT = "org.opensearch.distribution.integ-test-zip:opensearch";
  static final String DEPENDENCY_PLUGIN =
      "org.apache.maven.plugins:maven-dependency-plugin:3.9.0:copy";

  private static final List<String> KEPT_BESIDE = List.of("LICENSE.txt", "NOTICE.txt");

  private Distribution() {}

  /** The Maven coordinates of a version's zip. */
  static String coordinate(String version) {
    return GROUP_ARTIFACT + ":" + version + ":zip";
  }

  /** The cached zip of the layout's version. */
  static Path zip(ClusterLayout layout) {
    return layout.versionDir().resolve("opensearch-" + layout.version() + ".zip");
  }

  /** The Maven command that copies the version's zip into {@code dir}. */
  static List<String> fetchCommand(Path mvnw, String version, Path dir) {
    return List.of(
        mvnw.toString(),
        "-q",
        "-B",
        "-N",
        DEPENDENCY_PLUGIN,
        "-Dartifact=" + coordinate(version),
        "-DoutputDirectory=" + dir,
        "-Dmdep.overWriteReleases=true");
  }

  /**
   * The cached zip, fetched first if it is not cached.
   *
   * @param projectRoot the checkout, whose Maven wrapper fetches it
   * @throws IOException if Maven fails (the version is not in Maven Central, or it is offline),
   *     with Maven's last lines
   */
  static Path fetch(ClusterLayout layout, Path projectRoot, Consumer<String> log)
      throws IOException {
    Path zip = zip(layout);
    Path dir = layout.versionDir();
    if (Files.isRegularFile(dir.resolve(MARKER)) && Files.isRegularFile(zip)) {
      log.accept("OpenSearch " + layout.version() + ": cached in " + zip);
      return zip;
    }
    Files.createDirectories(dir);
    Path tmp = AtomicFiles.siblingDirectory(dir.resolve("distribution"), "fetch");
    try {
      List<String> cmd = fetchCommand(projectRoot.resolve("mvnw"), layout.version(), tmp);
      log.accept("OpenSearch " + layout.version() + ": " + String.join(" ", cmd));
      Path output = tmp.resolve("maven.out");
      try {
        Launcher.run(cmd, projectRoot, Map.of(), output);
      } catch (IOException e) {
        throw new IOException(
            "cannot fetch "
                + coordinate(layout.version())
                + " from Maven Central (is the version there, and the network up?): "
                + e.getMessage(),
            e);
      }
      Path fetched = tmp.resolve(zip.getFileName());
      if (!Files.isRegularFile(fetched)) {
        throw new IOException("Maven copied no " + zip.getFileName() + " into " + tmp);
      }
      try (ZipFile z = ZipFile.builder().setPath(fetched).get()) {
        for (String name : KEPT_BESIDE) {
          ZipArchiveEntry e = z.getEntry("opensearch-" + layout.version() + "/" + name);
          if (e != null) {
            try (InputStream in = z.getInputStream(e)) {
              Path beside = AtomicFiles.sibling(dir.resolve(name), "fetch");
              Files.copy(in, beside, StandardCopyOption.REPLACE_EXISTING);
              AtomicFiles.moveIntoPlace(beside, dir.resolve(name));
            }
          }
        }
      }
      AtomicFiles.moveIntoPlace(fetched, zip);
      AtomicFiles.writeString(
          dir.resolve(MARKER),
          "package "
              + coordinate(layout.version())
              + "\nfrom Maven Central, by ./tailor cluster up, at "
              + Instant.now()
              + "\nOpenSearch is licensed under the Apache License 2.0 (LICENSE.txt, NOTICE.txt)."
              + " Do not commit these files.\n");
      log.accept("OpenSearch " + layout.version() + ": cached in " + zip);
      return zip;
    } finally {
      AtomicFiles.deleteTree(tmp);
    }
  }

  /**
   * Unpacks the zip's single top directory into {@code target}, which must not exist, keeping the
   * files' Unix modes. Unpacked beside the target and moved into place, so that an interrupted
   * unpack leaves no half home.
   *
   * @throws IOException if the zip holds an entry outside its top directory, or one that would land
   *     outside the target
   */
  static void unpack(Path zip, Path target) throws IOException {
    Path tmp = AtomicFiles.siblingDirectory(target, "unpack");
    try {
      try (ZipFile z = ZipFile.builder().setPath(zip).get()) {
        for (ZipArchiveEntry e : java.util.Collections.list(z.getEntries())) {
          String name = e.getName();
          int slash = name.indexOf('/');
          if (slash < 0) {
            throw new IOException(zip + ": entry " + name + " is outside the distribution's root");
          }
          String relative = name.substring(slash + 1);
          if (relative.isEmpty()) {
            continue;
          }
          Path out = tmp.resolve(relative).normalize();
          if (!out.startsWith(tmp)) {
            throw new IOException(zip + ": entry " + name + " would land outside " + target);
          }
          if (e.isDirectory()) {
            Files.createDirectories(out);
            continue;
          }
          Files.createDirectories(out.getParent());
          try (InputStream in = z.getInputStream(e)) {
            Files.copy(in, out);
          }
          int mode = e.getUnixMode();
          if (mode != 0) {
            Files.setPosixFilePermissions(out, permissions(mode));
          }
        }
      }
      AtomicFiles.moveIntoPlace(tmp, target);
    } finally {
      AtomicFiles.deleteTree(tmp);
    }
  }

  /** The permissions of a Unix mode's lower nine bits. */
  static Set<PosixFilePermission> permissions(int mode) {
    PosixFilePermission[] bits = {
      PosixFilePermission.OTHERS_EXECUTE,
      PosixFilePermission.OTHERS_WRITE,
      PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.GROUP_WRITE,
      PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE,
      PosixFilePermission.OWNER_WRITE,
      PosixFilePermission.OWNER_READ
    };
    Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << i)) != 0) {
        out.add(bits[i]);
      }
    }
    return out;
  }
}
