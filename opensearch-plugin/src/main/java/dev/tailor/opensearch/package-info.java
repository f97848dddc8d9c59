/**
 * Tailor for OpenSearch 3.8: {@link dev.tailor.opensearch.TailorPlugin} makes a Tailor {@code
 * Scheduler} the node's index-searcher executor, so that a policy decides, per shard query phase
 * and as it runs, how many threads search the slices of concurrent segment search. Settings {@code
 * tailor.policy}, {@code tailor.workers}, {@code tailor.queue_capacity} and others, all dynamic;
 * stats at {@code GET /_tailor/stats}. docs/opensearch.md says how to install, run and roll it
 * back.
 */
package dev.tailor.opensearch;
