/**
 * The elastic worker budget: how many of the scheduler's threads search may use, resized at run
 * time by a {@link dev.tailor.core.budget.BudgetPolicy} from what the last period measured, and the
 * {@linkplain dev.tailor.core.budget.BackgroundCores cores it gives back} to background work the
 * embedding application runs (indexing, merges). The policies are the core-allocation policies of
 * McClure et al., "Efficient Scheduling Policies for Microsecond-Scale Tasks" (NSDI'22), Section
 * 3.2.2 and Section 4.1.
 */
package dev.tailor.core.budget;
