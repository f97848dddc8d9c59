/** The Lucene indexer with its reproducible segment layout, and the index manifest. */
package dev.tailor.corpora.index;
