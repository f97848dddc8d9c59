/**
 * The files Tailor's offline tools exchange, which no runtime class reads: the demand profile a
 * profiler writes and the simulator, the table builders and the predictor read ({@link
 * dev.tailor.measure.DemandProfile}), the comparison of two profiles, and the result of one point
 * of a sweep ({@link dev.tailor.measure.PointResult}) with its latency breakdown, failures and the
 * machine's noise over it ({@link dev.tailor.measure.MachineNoise}, read by a {@link
 * dev.tailor.measure.NoiseMeter}). Kept out of the runtime so that an embedder of the scheduler or
 * the drop-in ships none of it.
 */
package dev.tailor.measure;
