package dev.tailor.core.policy;

import dev.tailor.core.Internal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Finds policies by kind and configures them from a {@link PolicySpec}, or from a specification
 * string that parses into one ({@code name} or {@code name:args}: {@code seq}, {@code fixed:4},
 * {@code rampup:10ms,6}, {@code tpc:"tables/run@2.json"}; the grammar, quoting included, is {@link
 * PolicySpec}'s). A suffix {@code @help-first} or {@code @admit-first} ({@code
 * fixed:2@admit-first}) overrides the order in which the policy's free workers take work ({@link
 * WorkerPreference}); the policy's {@link Policy#spec()} and {@link Policy#identity()} keep it.
 * Holds the built-in policies and any {@link PolicyFactory} found through {@link ServiceLoader}.
 */
@Internal
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

  /** Shorthand for {@code standard().create(spec)}: parses, then creates. */
  public static Policy of(String spec) {
    return STANDARD.create(spec);
  }

  /** Shorthand for {@code standard().create(spec)}. */
  public static Policy of(PolicySpec spec) {
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
   * Creates the policy a specification string names: {@link PolicySpec#parse}, then {@link
   * #create(PolicySpec)}.
   *
   * @throws IllegalArgumentException if the string does not parse, the name is unknown (the message
   *     lists the known ones) or the arguments are malformed (the message gives the expected form)
   */
  public Policy create(String spec) {
    PolicySpec parsed;
    try {
      parsed = PolicySpec.parse(spec);
    } catch (IllegalArgumentException e) {
      PolicyFactory factory = factories.get(PolicySpec.kindOf(spec));
      if (factory == null || e.getMessage().contains("(expected")) {
        throw e;
      }
      throw new IllegalArgumentException(e.getMessage() + " (expected " + factory.usage() + ")", e);
    }
    return create(parsed, spec);
  }

  /**
   * Creates the policy a specification names: its kind's factory makes it from the arguments or
   * table files, and a {@linkplain PolicySpec#preference() preference} wraps it.
   *
   * @throws IllegalArgumentException if the kind is unknown (the message lists the known ones), the
   *     tables are {@linkplain PolicySpec#inMemory() in memory}, or the arguments are malformed
   *     (the message gives the expected form)
   */
  public Policy create(PolicySpec spec) {
    return create(spec, spec.toString());
  }

  private Policy create(PolicySpec spec, String written) {
    PolicyFactory factory = factories.get(spec.kind());
    if (factory == null) {
      throw new IllegalArgumentException(
          "unknown policy '" + spec.kind() + "'; known policies: " + String.join(", ", usages()));
    }
    Policy policy;
    try {
      if (spec.inMemory()) {
        throw new IllegalArgumentException(
            "it names tables held in memory, not files; give the policy its tables through its"
                + " own factory");
      }
      policy = factory.create(spec.withoutPreference());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "bad policy '" + written + "': " + e.getMessage() + " (expected " + factory.usage() + ")",
          e);
    }
    return spec.preference().isEmpty()
        ? policy
        : Policies.withPreference(policy, spec.preference().get());
  }

  /**
   * Splits a comma-separated list of specifications, such as {@code seq,fixed:2,rampup:10ms,6}: a
   * piece that is a number, a quoted argument, a {@code key=value} setting, or, after a setting, a
   * word that names no policy continues the specification before it, so the arguments of {@code
   * rampup:10ms,6} and {@code auto:period=1m,requests=500} stay together.
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
   * tc:table-{rps}.json}. A comma within a quoted file or argument ({@link PolicySpec}) does not
   * split.
   */
  public List<String> split(String specs) {
    List<String> out = new ArrayList<>();
    for (String piece : pieces(specs)) {
      String trimmed = piece.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      char first = trimmed.charAt(0);
      String previous = out.isEmpty() ? "" : out.get(out.size() - 1);
      // A number, a quoted argument, a key=value setting, or after a setting a word that names no
      // policy (a flag) continues the specification before it.
      int eq = trimmed.indexOf('=');
      int colon = trimmed.indexOf(':');
      boolean setting = eq >= 0 && (colon < 0 || colon > eq); // key=value, no name: before it
      boolean argument =
          Character.isDigit(first)
              || first == '.'
              || first == '"'
              || setting
              || previous.contains("=") && !factories.containsKey(PolicySpec.kindOf(trimmed));
      if (!argument || out.isEmpty()) {
        out.add(trimmed);
      } else {
        out.set(out.size() - 1, out.get(out.size() - 1) + "," + trimmed);
      }
    }
    return out;
  }

  /**
   * The list cut at every comma outside quotes. A quote opens, as in {@link PolicySpec}, only at
   * the start of a file or an argument: the first character other than a space after a colon, comma
   * or plus sign.
   */
  private static List<String> pieces(String specs) {
    List<String> out = new ArrayList<>();
    int start = 0;
    boolean opening = false; // whether a quote here would open a quoted file or argument
    for (int i = 0; i < specs.length(); i++) {
      char c = specs.charAt(i);
      if (c == '"' && opening) {
        int close = i + 1;
        while (close < specs.length()) {
          if (specs.charAt(close) == '"') {
            if (close + 1 < specs.length() && specs.charAt(close + 1) == '"') {
              close += 2;
              continue;
            }
            break;
          }
          close++;
        }
        i = close; // past the closing quote, or at the end when unclosed (the parse says so)
        opening = false;
      } else if (c == ',') {
        out.add(specs.substring(start, i));
        start = i + 1;
        opening = true;
      } else if (c == ':' || c == '+') {
        opening = true;
      } else if (!Character.isWhitespace(c)) {
        opening = false;
      }
    }
    out.add(specs.substring(start));
    return out;
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
