/**
 * Query traces: the formats (luceneutil tasks, plain text, TREC topics, Natural Questions), their
 * parsing into Lucene queries on field {@code body}, the fetcher of real query logs and the
 * luceneutil-style generator.
 */
package dev.tailor.corpora.trace;
