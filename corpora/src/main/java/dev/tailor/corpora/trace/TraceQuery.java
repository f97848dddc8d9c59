package dev.tailor.corpora.trace;

import org.apache.lucene.search.Query;

/**
 * One query of a trace, parsed against the index's analyzer on field {@code body}.
 *
 * @param line the line of the trace file it came from, counted from 1
 * @param id the query's id: the TREC topic id, else the line number
 * @param category the luceneutil category (e.g. {@code HighTerm}), for TREC {@code trec} or {@code
 *     trec-pN} with a priority, else the format's name in lower case
 * @param text the query text as written (without category, id or comment)
 * @param query the Lucene query
 */
public record TraceQuery(int line, String id, String category, String text, Query query) {}
