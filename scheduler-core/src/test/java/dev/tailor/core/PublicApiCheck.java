package dev.tailor.core;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Checks a module's public surface against its list of documented API types: every public top-level
 * type of the module's classes must either be on the list or be marked {@link Internal}, every type
 * on the list must exist, be public and not be marked internal, and no signature of a listed type
 * may mention a type that is marked internal or not public ({@link ApiSignatures}). The list is a
 * text file, one fully qualified type name a line, {@code #} starting a comment, kept beside the
 * module's POM; a change of the API is then a visible change of that file in review.
 */
public final class PublicApiCheck {

  private PublicApiCheck() {}

  /**
   * What is wrong with the public surface of the classes {@code anchor} was loaded from, against
   * the list in {@code apiList}; empty when nothing is. The problems with the list come first, then
   * every offending signature of a listed type, one a line.
   */
  public static List<String> violations(Class<?> anchor, Path apiList) throws IOException {
    Path classes;
    try {
      classes = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the classes of " + anchor, e);
    }
    Set<String> listed = read(apiList);
    List<String> problems = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    List<String> leaks = new ArrayList<>();
    for (String name : topLevelTypes(classes)) {
      Class<?> type;
      try {
        type = Class.forName(name, false, anchor.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("cannot load " + name + " from " + classes, e);
      }
      if (!Modifier.isPublic(type.getModifiers())) {
        continue;
      }
      seen.add(name);
      boolean internal = type.isAnnotationPresent(Internal.class);
      if (!internal && listed.contains(name)) {
        leaks.addAll(ApiSignatures.leaks(type));
      }
      if (internal && listed.contains(name)) {
        problems.add(name + " is marked @Internal but listed as API in " + apiList.getFileName());
      } else if (!internal && !listed.contains(name)) {
        problems.add(
            name
                + " is public but neither listed in "
                + apiList.getFileName()
                + " nor marked @Internal: make it package-private, mark it @Internal, or add it"
                + " to the list (and document it)");
      }
    }
    for (String name : listed) {
      if (!seen.contains(name)) {
        problems.add(
            apiList.getFileName()
                + " lists "
                + name
                + ", which is not a public type of this module");
      }
    }
    problems.addAll(leaks);
    return problems;
  }

  /**
   * The listed types by section: a line {@code ## NAME} starts section NAME; types before any
   * section header fall in section {@code ""}. Sections keep the file's order.
   */
  public static Map<String, List<String>> sections(Path apiList) throws IOException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    String section = "";
    for (String raw : Files.readAllLines(apiList)) {
      String text = raw.strip();
      if (text.startsWith("##")) {
        section = text.substring(2).strip();
        out.putIfAbsent(section, new ArrayList<>());
        continue;
      }
      int comment = text.indexOf('#');
      if (comment >= 0) {
        text = text.substring(0, comment).strip();
      }
      if (!text.isEmpty()) {
        out.computeIfAbsent(section, k -> new ArrayList<>()).add(text);
      }
    }
    return out;
  }

  private static Set<String> read(Path apiList) throws IOException {
    Set<String> names = new LinkedHashSet<>();
    int line = 0;
    for (String raw : Files.readAllLines(apiList)) {
      line++;
      String text = raw.strip();
      int comment = text.indexOf('#');
      if (comment >= 0) {
        text = text.substring(0, comment).strip();
      }
      if (text.isEmpty()) {
        continue;
      }
      if (!text.matches("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)+")) {
        throw new IllegalArgumentException(
            apiList + ":" + line + ": expected a fully qualified type name, got '" + text + "'");
      }
      names.add(text);
    }
    return names;
  }

  private static List<String> topLevelTypes(Path classes) throws IOException {
    try (Stream<Path> files = Files.walk(classes)) {
      return files
          .map(classes::relativize)
          .map(Path::toString)
          .filter(p -> p.endsWith(".class"))
          .filter(p -> !p.contains("$"))
          .filter(p -> !p.endsWith("package-info.class") && !p.endsWith("module-info.class"))
          .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
          .sorted()
          .toList();
    }
  }
}
