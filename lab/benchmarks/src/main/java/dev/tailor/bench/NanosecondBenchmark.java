package dev.tailor.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings the runtime's microbenchmarks share, inherited by each: the average time of one
 * operation in nanoseconds, over six one-second iterations after four of warm-up, in two forks of a
 * fixed 512 MiB heap, with one state per benchmark. One place for them, so that the figures {@code
 * ./tailor bench scheduler-overhead} sets side by side are measured alike.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Benchmark)
abstract class NanosecondBenchmark {}
