package dev.tailor.core.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Finds policies by name and configures them from a specification string, {@code name} or {@code
 * name:args}: {@code seq}, {@code fixed:4}, {@code rampup:10ms,6}. A suffix {@code @help-first} or
 * {@code @admit-first} ({@code fixed:2@admit-first}) overrides the order in which the policy's free
 * workers take work ({@link WorkerPreference}); the policy's {@link Policy#spec()} keeps it. Holds
 * the built-in policies and any {@link PolicyFactory} found through {@link ServiceLoader}.
 */
public final class PolicyRegistry {

  private static final PolicyRegistry STANDARD = load();

  private final Map<String, PolicyFactory> factories;

  private PolicyRegistry(Map<String, PolicyFactory> factories) {
    this.factories = Collections.unmodifiableMap(factories);
  }

  /** The registry of the built-in policies plus those on the class path. */
  public static PolicyRegistry standard() {
    return STANDARD;
  }

  /** Shorthand for {@code standard().create(spec)}. */
  public static Policy of(String spec) {
    return STANDARD.create(spec);
  }

  private static PolicyRegistry load() {
    Map<String, PolicyFactory> byName = new LinkedHashMap<>();
    for (PolicyFactory f : BaselinePolicies.factories()) {
      byName.put(f.name(), f);
    }
    for (PolicyFactory f : FewToManyPolicy.factories()) {
      byName.put(f.name(), f);
    }
    for (PolicyFactory f : TpcPolicy.factories()) {
      byName.put(f.name(), f);
    }
    for (PolicyFactory f : TailControlPolicy.factories()) {
      byName.put(f.name(), f);
    }
    for (PolicyFactory f : ProgressPolicy.factories()) {
      byName.put(f.name(), f);
    }
    for (PolicyFactory f : ServiceLoader.load(PolicyFactory.class)) {
      byName.putIfAbsent(f.name(), f);
    }
    return new PolicyRegistry(byName);
  }

  /**
   * Creates the policy a specification names.
   *
   * @throws IllegalArgumentException if the name is unknown (the message lists the known ones) or
   *     the arguments are malformed (the message gives the expected form)
   */
  public Policy create(String spec) {
    String trimmed = spec.trim();
    int at = trimmed.lastIndexOf('@');
    if (at >= 0) {
      WorkerPreference preference = PreferenceOverride.parse(trimmed.substring(at + 1).trim());
      if (preference == null) {
        throw new IllegalArgumentException(
            "bad policy '"
                + spec
                + "': unknown suffix '"
                + trimmed.substring(at)
                + "' (expected @help-first or @admit-first)");
      }
      return Policies.withPreference(create(trimmed.substring(0, at)), preference);
    }
    int colon = trimmed.indexOf(':');
    String name = (colon < 0 ? trimmed : trimmed.substring(0, colon)).toLowerCase(Locale.ROOT);
    String args = colon < 0 ? "" : trimmed.substring(colon + 1).trim();
    PolicyFactory factory = factories.get(name);
    if (factory == null) {
      throw new IllegalArgumentException(
          "unknown policy '" + name + "'; known policies: " + String.join(", ", usages()));
    }
    try {
      return factory.create(args);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "bad policy '" + spec + "': " + e.getMessage() + " (expected " + factory.usage() + ")",
          e);
    }
  }

  /**
   * Splits a comma-separated list of specifications, such as {@code seq,fixed:2,rampup:10ms,6}: a
   * piece that is a number, a {@code key=value} setting, or, after a setting, a word that names no
   * policy continues the specification before it, so the arguments of {@code rampup:10ms,6} and
   * {@code auto:period=1m,requests=500,inline} stay together.
   *
   * @throws IllegalArgumentException if the list starts with an unknown name (listing the known
   *     ones)
   */
  public List<String> splitList(String specs) {
    List<String> out = split(specs);
    for (String spec : out) {
      // An unknown name or bad arguments fail here, saying what was expected.
      try (Policy checked = create(spec)) {
        checked.spec();
      }
    }
    return out;
  }

  /**
   * Splits a comma-separated list of specifications as {@link #splitList} does, without creating
   * them: for a list whose specifications are completed later, such as a sweep's {@code
   * tc:table-{rps}.json}.
   */
  public List<String> split(String specs) {
    List<String> out = new ArrayList<>();
    for (String piece : specs.split(",")) {
      String trimmed = piece.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      char first = trimmed.charAt(0);
      String previous = out.isEmpty() ? "" : out.get(out.size() - 1);
      // A number, a key=value setting, or after a setting a word that names no policy (a flag
      // such as auto's inline) continues the specification before it.
      int eq = trimmed.indexOf('=');
      int colon = trimmed.indexOf(':');
      boolean setting = eq >= 0 && (colon < 0 || colon > eq); // key=value, no name: before it
      boolean argument =
          Character.isDigit(first)
              || first == '.'
              || setting
              || previous.contains("=") && !factories.containsKey(nameOf(trimmed));
      if (!argument || out.isEmpty()) {
        out.add(trimmed);
      } else {
        out.set(out.size() - 1, out.get(out.size() - 1) + "," + trimmed);
      }
    }
    return out;
  }

  /** The name a specification starts with: before its first colon or at sign, lower case. */
  private static String nameOf(String spec) {
    int end = spec.length();
    for (char c : new char[] {':', '@'}) {
      int i = spec.indexOf(c);
      if (i >= 0) {
        end = Math.min(end, i);
      }
    }
    return spec.substring(0, end).trim().toLowerCase(Locale.ROOT);
  }

  /** The factories, in registration order. */
  public List<PolicyFactory> factories() {
    return List.copyOf(factories.values());
  }

  private List<String> usages() {
    List<String> list = new ArrayList<>();
    for (PolicyFactory f : factories.values()) {
      list.add(f.usage());
    }
    return list;
  }

  @Override
  public String toString() {
    return factories.values().stream().map(PolicyFactory::usage).collect(Collectors.joining(", "));
  }
}
