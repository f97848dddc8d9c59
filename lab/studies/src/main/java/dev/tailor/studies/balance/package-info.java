/**
 * The load-balancing study: W cores running sequential requests under a single shared admission
 * queue (Tailor's design), random placement on per-core queues, or random placement with work
 * stealing, after the simulation of McClure et al., "Efficient Scheduling Policies for
 * Microsecond-Scale Tasks" (NSDI'22, §4.1), with the single queue's contention modelled instead of
 * idealized away.
 */
package dev.tailor.studies.balance;
