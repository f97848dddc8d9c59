package dev.tailor.measure;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Which build made a point and on which machine, so that a report never pools runs that measured
 * different things: another build's code, another machine's cores. A report refuses points that
 * disagree ({@link #checkSame}), naming the field.
 *
 * @param build the Tailor build: its version and the SHA-256 of the jar its classes came from
 *     (first 12 hex digits), or the classes directory where they came from no jar
 * @param machine the host name, cores, CPU model, architecture and Java version
 */
public record Provenance(String build, String machine) {

  private static final Machine CURRENT_MACHINE = machineNow();

  private static final Provenance CURRENT =
      new Provenance(currentBuild(), CURRENT_MACHINE.describe());

  /**
   * A machine as {@link Provenance#machine} describes it, field by field.
   *
   * @param host the host name
   * @param cores the processors the JVM saw
   * @param cpu the CPU's model name, or {@code CPU unknown}
   * @param arch the architecture ({@code os.arch})
   * @param java the Java version ({@code java.version})
   */
  public record Machine(String host, int cores, String cpu, String arch, String java) {

    /** The one-line description {@link Provenance#machine} holds. */
    public String describe() {
      return host + ", " + cores + " cores, " + cpu + ", " + arch + ", Java " + java;
    }

    /**
     * The fields of a description {@link #describe} wrote.
     *
     * @throws IllegalArgumentException saying what was expected if {@code text} is not one
     */
    public static Machine parse(String text) {
      String[] parts = text == null ? new String[0] : text.split(", ");
      if (parts.length >= 5
          && parts[1].endsWith(" cores")
          && parts[parts.length - 1].startsWith("Java ")) {
        try {
          int cores = Integer.parseInt(parts[1].substring(0, parts[1].length() - 6));
          String cpu = String.join(", ", List.of(parts).subList(2, parts.length - 2));
          return new Machine(
              parts[0],
              cores,
              cpu,
              parts[parts.length - 2],
              parts[parts.length - 1].substring("Java ".length()));
        } catch (NumberFormatException e) {
          // said below
        }
      }
      throw new IllegalArgumentException(
          "expected a machine as 'HOST, N cores, CPU, ARCH, Java VERSION', got '" + text + "'");
    }
  }

  /** This process's machine, field by field. */
  public static Machine currentMachine() {
    return CURRENT_MACHINE;
  }

  /** This process's build and machine (computed once). */
  public static Provenance current() {
    return CURRENT;
  }

  /**
   * Checks that the points may be pooled in one report: measured on one machine by one build, of
   * one corpus or profile ({@link PointResult#corpus}). Points written before provenance was
   * recorded (null) are not checked against it; simulated points are not checked for the machine (a
   * simulation's machine is the one it models, which {@link PointResult#environment} says).
   *
   * @throws IllegalArgumentException naming the field and two points that disagree on it
   */
  public static void checkSame(List<PointResult> points) {
    PointResult first = null;
    for (PointResult p : points) {
      if (first == null) {
        first = p;
        continue;
      }
      same("environment", first, p, first.environment(), p.environment());
      same("corpus", first, p, first.corpus(), p.corpus());
      if (first.provenance() != null && p.provenance() != null) {
        same("provenance.build", first, p, first.provenance().build(), p.provenance().build());
        if (first.environment().startsWith("measured")) {
          same(
              "provenance.machine",
              first,
              p,
              first.provenance().machine(),
              p.provenance().machine());
        }
      }
    }
  }

  private static void same(String field, PointResult a, PointResult b, String x, String y) {
    if (x == null ? y != null : !x.equals(y)) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "the points disagree on %s: '%s' (%s at %s rps, run %d) against '%s' (%s at %s rps,"
                  + " run %d); a report pools the runs of one build on one machine of one"
                  + " corpus or profile",
              field,
              x,
              a.policy(),
              a.offeredRps(),
              a.repetition(),
              y,
              b.policy(),
              b.offeredRps(),
              b.repetition()));
    }
  }

  private static String currentBuild() {
    String version = Provenance.class.getPackage().getImplementationVersion();
    String build = "tailor " + (version == null ? "(unversioned)" : version);
    try {
      Path source =
          Path.of(Provenance.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isRegularFile(source)) {
        return build + " " + digest(source);
      }
      return build + " classes at " + source;
    } catch (IOException | URISyntaxException | SecurityException | NullPointerException e) {
      return build + " (source unknown)";
    }
  }

  private static String digest(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha.update(buffer, 0, n);
      }
      return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static Machine machineNow() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "unknown host";
    }
    return new Machine(
        host,
        Runtime.getRuntime().availableProcessors(),
        cpuModel(),
        System.getProperty("os.arch"),
        System.getProperty("java.version"));
  }

  /** The CPU's model name from /proc/cpuinfo, or "CPU unknown" where there is none. */
  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | SecurityException e) {
      // not Linux: said below
    }
    return "CPU unknown";
  }
}
