/**
 * Every Tailor benchmark: the JMH micro-benchmarks ({@link
 * dev.tailor.bench.SchedulerOverheadBenchmark}, {@link dev.tailor.bench.HelperUnitBenchmark}, run
 * from the shaded jar by {@link dev.tailor.bench.JmhLauncher}) and the harnesses that measure in
 * this process and print their figures ({@link dev.tailor.bench.SimulatorBench}, {@link
 * dev.tailor.bench.FmBuildBench}, {@link dev.tailor.bench.LoadClientBench}, {@link
 * dev.tailor.bench.NoiseMeterBench}, {@link dev.tailor.bench.SearchBenches}). {@code ./tailor bench
 * NAME} only parses options and calls them.
 */
package dev.tailor.bench;
