package dev.tailor.profiler;

import dev.tailor.measure.CpuTicks;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * What the machine and the JVM do besides the measured search, read before and after a stretch of
 * measurement: garbage collections, JIT compilation, and (on Linux, from {@code /proc}) the CPU
 * time other processes and the hypervisor took. The profiler uses it to throw away samples a
 * collection ran into, and records the rest in the profile, so that a profile says when it measured
 * the machine rather than the queries.
 */
final class MachineMonitor {

  /**
   * The machine's CPU accounting and the JIT's compilation time at one moment.
   *
   * @param cpu the machine's and this process's CPU ticks, {@link CpuTicks#UNKNOWN} where {@code
   *     /proc} is not readable
   * @param compilationMillis the JIT's total compilation time so far, or -1
   */
  record Snapshot(CpuTicks cpu, long compilationMillis) {}

  private final GarbageCollectorMXBean[] collectors;
  private final CompilationMXBean compilation;

  MachineMonitor() {
    List<GarbageCollectorMXBean> beans = ManagementFactory.getGarbageCollectorMXBeans();
    this.collectors = beans.toArray(new GarbageCollectorMXBean[0]);
    CompilationMXBean c = ManagementFactory.getCompilationMXBean();
    this.compilation = c != null && c.isCompilationTimeMonitoringSupported() ? c : null;
  }

  /**
   * The number of garbage collections so far, over all collectors: cheap enough to read around
   * every sample (a counter in shared memory, no safepoint).
   */
  long collections() {
    long n = 0;
    for (GarbageCollectorMXBean c : collectors) {
      n += Math.max(0, c.getCollectionCount());
    }
    return n;
  }

  /** The JIT's total compilation time so far, in milliseconds, or -1 if unknown. */
  long compilationMillis() {
    return compilation != null ? compilation.getTotalCompilationTime() : -1;
  }

  /** CPU accounting now. */
  Snapshot snapshot() {
    return new Snapshot(CpuTicks.read(), compilationMillis());
  }

  /**
   * The share of all CPU time between two snapshots that other processes used, in 0..1, or null if
   * unknown.
   */
  static Double otherShare(Snapshot from, Snapshot to) {
    return knownOrNull(to.cpu().otherShareSince(from.cpu()));
  }

  /** The share of all CPU time between two snapshots the hypervisor stole, or null if unknown. */
  static Double stealShare(Snapshot from, Snapshot to) {
    return knownOrNull(to.cpu().stealShareSince(from.cpu()));
  }

  private static Double knownOrNull(double share) {
    return Double.isNaN(share) ? null : share;
  }

  /** JIT compilation time between two snapshots, or -1 if unknown. */
  static long compilationMillis(Snapshot from, Snapshot to) {
    return from.compilationMillis() < 0 ? -1 : to.compilationMillis() - from.compilationMillis();
  }
}
