package dev.tailor.server;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Bounds the number of metrics groups clients can create through request labels. The configured
 * labels always have a group of their own; other labels get one first come, first served, while
 * fewer than the limit exist; every label after that is counted as {@value #OTHER}. So {@code
 * /stats} never holds more than {@code limit + 1} label groups, whatever clients send.
 */
final class LabelGroups {

  /** The group of every label that came after the limit was reached. */
  static final String OTHER = "other";

  /** The longest label accepted. */
  static final int MAX_LENGTH = 64;

  private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_.:-]{1," + MAX_LENGTH + "}");

  private final int limit;
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();
  private volatile boolean full;

  /**
   * @param limit the most distinct labels with a group of their own, the known ones included
   * @param known labels that always have a group of their own
   * @throws IllegalArgumentException if a known label is not a valid label or there are more than
   *     the limit
   */
  LabelGroups(int limit, List<String> known) {
    if (limit < 0) {
      throw new IllegalArgumentException("maxLabels must be >= 0, got " + limit);
    }
    for (String label : known) {
      String why = invalid(label);
      if (why != null) {
        throw new IllegalArgumentException("labels: " + why);
      }
      admitted.add(label);
    }
    if (admitted.size() > limit) {
      throw new IllegalArgumentException(
          "labels: " + admitted.size() + " known labels, more than maxLabels " + limit);
    }
    this.limit = limit;
    this.full = admitted.size() >= limit;
  }

  /** Why a label is not acceptable, or null if it is. */
  static String invalid(String label) {
    if (label == null || !LABEL.matcher(label).matches()) {
      return "label must be 1 to "
          + MAX_LENGTH
          + " letters, digits or _ . : -, got "
          + (label == null ? "none" : Problem.quote(label));
    }
    return null;
  }

  /** The group a valid label is counted in: itself, or {@value #OTHER}; null stays null. */
  String groupOf(String label) {
    if (label == null || admitted.contains(label)) {
      return label;
    }
    if (!full) {
      synchronized (this) {
        if (admitted.contains(label) || admitted.size() < limit) {
          admitted.add(label);
          return label;
        }
        full = true;
      }
    }
    return OTHER;
  }

  /** Labels with a group of their own so far. */
  int distinct() {
    return admitted.size();
  }

  int limit() {
    return limit;
  }
}
