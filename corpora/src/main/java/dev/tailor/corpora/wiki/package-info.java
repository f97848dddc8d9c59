/** MediaWiki XML dumps, read in constant memory, and wiki markup turned into plain text. */
package dev.tailor.corpora.wiki;
