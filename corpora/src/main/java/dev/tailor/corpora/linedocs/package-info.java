/** luceneutil's line-docs format, read and written, and the metadata kept beside a file. */
package dev.tailor.corpora.linedocs;
