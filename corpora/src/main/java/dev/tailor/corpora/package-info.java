/**
 * Real Wikipedia text and query logs, the seeded scale-up generator, the Lucene indexer and the
 * query-trace formats with their parsing into Lucene queries.
 */
package dev.tailor.corpora;
