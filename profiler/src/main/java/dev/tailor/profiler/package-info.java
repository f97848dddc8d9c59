/**
 * The demand profiler: {@link dev.tailor.profiler.DemandProfiler} measures each query of a trace on
 * a real index, sequentially and per unit at every degree, in interleaved rounds with the machine
 * watched, so that a second profile of the same trace gives the same per-query times; it writes a
 * {@link dev.tailor.measure.DemandProfile}.
 */
package dev.tailor.profiler;
