/**
 * How far to trust the simulator: every measured point of a replay's report simulated again with
 * the same arrivals, query order and warm-up, and the simulated percentiles set beside the measured
 * ones.
 */
package dev.tailor.load.fidelity;
