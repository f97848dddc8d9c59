/**
 * The runtime: a {@link dev.tailor.core.Scheduler} that runs requests on a fixed budget of threads
 * and, through a {@link dev.tailor.core.policy.Policy}, decides when each starts and how many
 * threads work on it as it runs.
 */
package dev.tailor.core;
