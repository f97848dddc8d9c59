/** A small HTTP JSON search server over the drop-in searcher. */
package dev.tailor.lucene.server;
