package dev.tailor.profiler;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
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
   * CPU accounting at one moment, in clock ticks; all -1 where {@code /proc} is not readable.
   *
   * @param busyTicks ticks all CPUs spent doing anything but idling or waiting for I/O
   * @param totalTicks all ticks of all CPUs
   * @param stealTicks ticks the hypervisor gave to other guests
   * @param ownTicks ticks this process used, user and system
   * @param compilationMillis the JIT's total compilation time so far, or -1
   */
  record Snapshot(
      long busyTicks, long totalTicks, long stealTicks, long ownTicks, long compilationMillis) {}

  private static final Path PROC_STAT = Path.of("/proc/stat");
  private static final Path PROC_SELF_STAT = Path.of("/proc/self/stat");

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
    long compiled = compilationMillis();
    try {
      long[] cpu = cpuLine(Files.readAllLines(PROC_STAT).get(0));
      long own = ownTicks(Files.readString(PROC_SELF_STAT));
      // user nice system idle iowait irq softirq steal (guest time is already within user).
      long idle = cpu[3] + cpu[4];
      long total = 0;
      for (int i = 0; i < Math.min(8, cpu.length); i++) {
        total += cpu[i];
      }
      long steal = cpu.length > 7 ? cpu[7] : 0;
      return new Snapshot(total - idle, total, steal, own, compiled);
    } catch (IOException | RuntimeException e) {
      return new Snapshot(-1, -1, -1, -1, compiled);
    }
  }

  /**
   * The share of all CPU time between two snapshots that other processes used, in 0..1, or null if
   * unknown.
   */
  static Double otherShare(Snapshot from, Snapshot to) {
    if (from.totalTicks() < 0 || to.totalTicks() <= from.totalTicks()) {
      return null;
    }
    double total = to.totalTicks() - from.totalTicks();
    double others =
        (to.busyTicks() - from.busyTicks()) - (to.ownTicks() - from.ownTicks()) - steal(from, to);
    return Math.clamp(others / total, 0.0, 1.0);
  }

  /** The share of all CPU time between two snapshots the hypervisor stole, or null if unknown. */
  static Double stealShare(Snapshot from, Snapshot to) {
    if (from.totalTicks() < 0 || to.totalTicks() <= from.totalTicks()) {
      return null;
    }
    return Math.clamp(steal(from, to) / (double) (to.totalTicks() - from.totalTicks()), 0.0, 1.0);
  }

  /** JIT compilation time between two snapshots, or -1 if unknown. */
  static long compilationMillis(Snapshot from, Snapshot to) {
    return from.compilationMillis() < 0 ? -1 : to.compilationMillis() - from.compilationMillis();
  }

  private static long steal(Snapshot from, Snapshot to) {
    return to.stealTicks() - from.stealTicks();
  }

  /** The numbers of the {@code cpu} line of {@code /proc/stat}. */
  static long[] cpuLine(String line) {
    if (!line.startsWith("cpu ")) {
      throw new IllegalArgumentException("not the cpu line of /proc/stat: " + line);
    }
    String[] parts = line.substring(4).trim().split("\\s+");
    long[] out = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = Long.parseLong(parts[i]);
    }
    return out;
  }

  /**
   * User plus system ticks of this process, from {@code /proc/self/stat}; its fields 14 and 15,
   * counted after the command name, which may itself hold spaces and parentheses.
   */
  static long ownTicks(String stat) {
    String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    // rest[0] is field 3 (state), so field 14 (utime) is rest[11] and field 15 (stime) rest[12].
    return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
  }
}
