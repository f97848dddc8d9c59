package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What an embedder's class path holds for the drop-in: the runtime class path Maven resolved for
 * this module ({@code target/drop-in.classpath}, written by the dependency plugin before the tests)
 * is printed jar by jar with its size, and of Tailor it holds only the runtime itself.
 */
class DropInClassPathTest {

  private static final Path CLASS_PATH = Path.of("target", "drop-in.classpath");

  @Test
  void theDropInPullsOnlyTheRuntimeOfTailorAndPrintsItsJars() throws IOException {
    List<Path> entries = new ArrayList<>();
    for (String e : Files.readString(CLASS_PATH).strip().split(File.pathSeparator)) {
      entries.add(Path.of(e));
    }
    entries.add(Path.of("target", "classes").toAbsolutePath());

    Set<String> tailorModules = new TreeSet<>();
    long total = 0;
    StringBuilder listing = new StringBuilder("the drop-in's class path:\n");
    for (Path e : entries) {
      String module = tailorModule(e);
      if (module != null) {
        tailorModules.add(module);
      }
      long bytes = size(e);
      total += bytes;
      listing.append(
          String.format(
              Locale.ROOT, "  %8.1f KB  %s%n", bytes / 1024.0, module != null ? module : name(e)));
    }
    listing.append(
        String.format(
            Locale.ROOT, "  %d entries, %.1f MB%n", entries.size(), total / (1024.0 * 1024)));
    System.out.print(listing);

    assertEquals(Set.of("lucene-integration", "scheduler-core"), tailorModules, listing::toString);
    assertTrue(
        entries.stream().anyMatch(e -> name(e).startsWith("lucene-core")), listing::toString);
    assertTrue(
        entries.stream().noneMatch(e -> name(e).contains("jmh") || name(e).contains("junit")),
        listing::toString);
  }

  /**
   * The Tailor module an entry is, from a reactor build's {@code MODULE/target/classes} or {@code
   * MODULE/target/MODULE-VERSION.jar}, or a repository's {@code
   * dev/tailor/MODULE/VERSION/MODULE-VERSION.jar}; null for any other.
   */
  private static String tailorModule(Path e) {
    String s = e.toAbsolutePath().normalize().toString().replace(File.separatorChar, '/');
    int repo = s.indexOf("/dev/tailor/");
    if (repo >= 0) {
      return s.substring(repo + "/dev/tailor/".length()).split("/")[0];
    }
    Path p = Path.of(s);
    if (s.endsWith("/target/classes")) {
      return p.getParent().getParent().getFileName().toString();
    }
    if (p.getParent() != null && p.getParent().getFileName().toString().equals("target")) {
      return p.getParent().getParent().getFileName().toString(); // a reactor's packaged jar
    }
    return null;
  }

  private static String name(Path e) {
    return e.getFileName().toString();
  }

  private static long size(Path e) {
    if (!Files.isDirectory(e)) {
      try {
        return Files.size(e);
      } catch (IOException x) {
        throw new UncheckedIOException(x);
      }
    }
    try (Stream<Path> files = Files.walk(e)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              f -> {
                try {
                  return Files.size(f);
                } catch (IOException x) {
                  throw new UncheckedIOException(x);
                }
              })
          .sum();
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }
}
