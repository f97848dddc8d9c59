/**
 * The elastic-budget study: how many threads the core-allocation policies of McClure et al.
 * ("Efficient Scheduling Policies for Microsecond-Scale Tasks", NSDI'22, Section 4.3) leave search,
 * against a static budget of every thread, at the P99 each gets, per core count and load.
 */
package dev.tailor.studies.budget;
