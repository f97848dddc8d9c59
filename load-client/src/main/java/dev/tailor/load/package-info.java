/** The open-loop load client: replays, targets (in-process, HTTP, no-op) and sweeps. */
package dev.tailor.load;
