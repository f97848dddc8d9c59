/**
 * The scheduling {@link java.util.concurrent.Executor} handed to Lucene's {@code IndexSearcher},
 * per-query slicing, the demand profiler and a small HTTP search server.
 */
package dev.tailor.lucene;
