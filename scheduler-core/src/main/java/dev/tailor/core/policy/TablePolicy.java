package dev.tailor.core.policy;

import dev.tailor.core.Internal;
import dev.tailor.core.table.TableSource;

/**
 * A policy that decides from a table (Few-to-Many's intervals, TPC's targets, tail-control's
 * thresholds): every decision reads the table's current version, the identity names the policy and
 * its table's file, and closing the policy stops watching a table file it opened. Only the three
 * built-in table policies are one.
 *
 * @param <T> the table
 */
@Internal
public abstract sealed class TablePolicy<T> implements Policy
    permits FewToManyPolicy, TailControlPolicy, TpcPolicy {

  /** The table every decision reads. */
  final PolicyTable<T> table;

  private final PolicySpec identity;
  private final String spec;

  TablePolicy(PolicyTable<T> table, String policyName) {
    this.table = table;
    this.identity = table.identity(policyName);
    this.spec = identity.toString();
  }

  /** The table source, whose current table every decision reads. */
  public TableSource<T> table() {
    return table.source();
  }

  /** The tables its source swapped in since it was created. */
  @Override
  public long tableSwaps() {
    return table.source().swaps();
  }

  @Override
  public String spec() {
    return spec;
  }

  /** Its kind and its table's file, or {@code KIND:(in memory)} for a table handed over. */
  @Override
  public PolicySpec identity() {
    return identity;
  }

  /** Stops watching the table file if this policy opened it; the current table keeps serving. */
  @Override
  public void close() {
    table.close();
  }
}
