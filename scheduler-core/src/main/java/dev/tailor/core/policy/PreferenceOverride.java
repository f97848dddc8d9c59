package dev.tailor.core.policy;

import java.util.Locale;
import java.util.Objects;

/**
 * A policy whose free workers take work in a stated order, help-first or admit-first, whatever the
 * policy itself prefers: the {@code @help-first} and {@code @admit-first} suffixes of a
 * specification ({@code fixed:2@admit-first}). The specification keeps the suffix, so that a report
 * names the order each policy used.
 */
final class PreferenceOverride extends ForwardingPolicy {

  private final WorkerPreference preference;

  PreferenceOverride(Policy policy, WorkerPreference preference) {
    super(policy);
    this.preference = preference;
  }

  /** The suffix that names a preference, such as {@code @admit-first}. */
  static String suffix(WorkerPreference p) {
    return "@" + p.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The preference a suffix (without its {@code @}) names, or null if it names none. */
  static WorkerPreference parse(String suffix) {
    for (WorkerPreference p : WorkerPreference.values()) {
      if (suffix(p).substring(1).equals(suffix.toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    return null;
  }

  @Override
  public WorkerPreference workerPreference(SystemView system) {
    return preference;
  }

  @Override
  public String spec() {
    return policy.spec() + suffix(preference);
  }

  @Override
  public PolicySpec identity() {
    return policy.identity().withPreference(preference);
  }

  /** Equal to an override of an equal policy with the same preference: a spec parsed twice. */
  @Override
  public boolean equals(Object o) {
    return o instanceof PreferenceOverride p
        && policy.equals(p.policy)
        && preference == p.preference;
  }

  @Override
  public int hashCode() {
    return Objects.hash(policy, preference);
  }
}
