package dev.tailor.core.budget;

import dev.tailor.core.Internal;

/**
 * What one period of the elastic budget measured, the input of a {@link BudgetPolicy}.
 *
 * @param periodNanos the length of the period
 * @param budget the budget during the period: threads search could use
 * @param minBudget the least budget the scheduler allows
 * @param maxBudget the most: the scheduler's worker threads
 * @param utilization busy thread time over budget time during the period, in [0, 1] (above 1 only
 *     while a shrink is still taking effect: threads above the budget finish their unit first)
 * @param meanQueueingDelayNanos the mean queueing delay of the requests admitted during the period
 *     and of those still queued at its end (their wait so far); 0 if there were none
 * @param meanServiceNanos the mean time in service (admission to completion) of recent requests: an
 *     exponentially weighted mean over completions; 0 before the first completion
 * @param queued the requests waiting for admission at the end of the period
 */
@Internal
public record BudgetSample(
    long periodNanos,
    int budget,
    int minBudget,
    int maxBudget,
    double utilization,
    double meanQueueingDelayNanos,
    double meanServiceNanos,
    int queued) {}
