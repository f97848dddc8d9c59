/**
 * The open-loop load client: replays, targets (in-process, plain Lucene, HTTP, no-op) and sweeps.
 */
package dev.tailor.load;
