/** The Wikipedia summaries (10,033 English vital articles, their lead sections) as a corpus. */
package dev.tailor.corpora.summaries;
