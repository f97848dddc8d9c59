package dev.tailor.lucene;

/**
 * What a search with a deadline returns: the collected result and whether the deadline passed
 * before every unit was searched, in which case the result covers only part of the index.
 *
 * @param result the collector manager's reduced result, partial if {@code timedOut}
 * @param timedOut whether the deadline stopped the search early
 * @param <T> the result type
 */
public record SearchOutcome<T>(T result, boolean timedOut) {}
