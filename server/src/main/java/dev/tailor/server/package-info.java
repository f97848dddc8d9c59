/**
 * A small HTTP JSON search server over the drop-in searcher, {@link
 * dev.tailor.server.SearchServer}, which bounds what clients can hold: searches in flight, request
 * threads, waiting connections, the time to send a request or take a response, body size and
 * metrics groups.
 */
package dev.tailor.server;
