package dev.tailor.measure;

import dev.tailor.core.Internal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU accounting of the whole machine and of this process at one moment, in the kernel's clock
 * ticks, as Linux keeps it in {@code /proc/stat} (its {@code cpu} line, all CPUs summed) and {@code
 * /proc/self/stat}. Two readings give the shares of the machine's CPU time between them that the
 * hypervisor stole ({@link #stealShareSince}) and that other processes used ({@link
 * #otherShareSince}). Where {@code /proc} is absent (macOS, Windows) or unreadable, a reading is
 * {@link #UNKNOWN} and the shares are NaN.
 *
 * <p>The profiler reads it around its timed rounds, the {@link NoiseMeter} around a window.
 *
 * @param busyTicks ticks all CPUs spent doing anything but idling or waiting for I/O (user, nice,
 *     system, irq, softirq and steal), or -1 if unknown
 * @param totalTicks all ticks of all CPUs (those and idle and iowait), or -1 if unknown
 * @param stealTicks ticks the hypervisor gave to other guests while this one wanted to run, or -1
 * @param ownTicks ticks this process used, user and system, or -1
 */
@Internal
public record CpuTicks(long busyTicks, long totalTicks, long stealTicks, long ownTicks) {

  /** A reading where {@code /proc} could not be read. */
  public static final CpuTicks UNKNOWN = new CpuTicks(-1, -1, -1, -1);

  /** The machine's accounting. */
  public static final Path PROC_STAT = Path.of("/proc/stat");

  /** This process's accounting. */
  public static final Path PROC_SELF_STAT = Path.of("/proc/self/stat");

  // The cpu line's fields, in order: the first 8 add up to all the time (guest time is already
  // within user, guest_nice within nice).
  private static final String[] CPU_FIELDS = {
    "user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"
  };

  /**
   * The accounting now, or {@link #UNKNOWN} where {@code /proc} is absent, unreadable or not as
   * {@link #parse} expects; never throws, so that a meter keeps going on a machine without it.
   */
  public static CpuTicks read() {
    try {
      return parse(Files.readString(PROC_STAT), Files.readString(PROC_SELF_STAT));
    } catch (IOException | RuntimeException e) {
      return UNKNOWN;
    }
  }

  /**
   * The accounting in the texts of {@code /proc/stat} (its first line, the {@code cpu} line, is
   * read) and {@code /proc/self/stat}.
   *
   * @throws IllegalArgumentException naming the file and the field if either is not as Linux writes
   *     it
   */
  public static CpuTicks parse(String procStat, String selfStat) {
    int eol = procStat.indexOf('\n');
    long[] cpu = cpuLine(eol < 0 ? procStat : procStat.substring(0, eol));
    long total = 0;
    for (int i = 0; i < Math.min(CPU_FIELDS.length, cpu.length); i++) {
      total += cpu[i];
    }
    long idle = cpu[3] + cpu[4];
    long steal = cpu.length > 7 ? cpu[7] : 0;
    return new CpuTicks(total - idle, total, steal, ownTicks(selfStat));
  }

  /**
   * The numbers of the {@code cpu} line of {@code /proc/stat}: at least user, nice, system, idle
   * and iowait (Linux 2.6 on), then irq, softirq, steal and more where the kernel writes them.
   *
   * @throws IllegalArgumentException naming the field if the line is not the {@code cpu} line or a
   *     field is not a whole number
   */
  static long[] cpuLine(String line) {
    if (!line.startsWith("cpu ")) {
      throw new IllegalArgumentException(
          PROC_STAT + ": expected the cpu line first, got \"" + shown(line) + "\"");
    }
    String[] parts = line.substring(4).trim().split("\\s+");
    if (parts.length < 5) {
      throw new IllegalArgumentException(
          PROC_STAT + ": cpu line: expected at least 5 fields, got " + parts.length);
    }
    long[] out = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String field = i < CPU_FIELDS.length ? CPU_FIELDS[i] : "field " + (i + 1);
      out[i] = ticks(parts[i], PROC_STAT + ": cpu line: " + field);
    }
    return out;
  }

  /**
   * User plus system ticks of this process, from {@code /proc/self/stat}: its fields 14 (utime) and
   * 15 (stime), counted after the command name, which may itself hold spaces and parentheses.
   *
   * @throws IllegalArgumentException naming the field if they are not there or not whole numbers
   */
  static long ownTicks(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException(
          PROC_SELF_STAT + ": expected \"pid (comm) state ...\", got \"" + shown(stat) + "\"");
    }
    String[] rest = stat.substring(close + 1).trim().split("\\s+");
    // rest[0] is field 3 (state), so field 14 (utime) is rest[11] and field 15 (stime) rest[12].
    if (rest.length < 13) {
      throw new IllegalArgumentException(
          PROC_SELF_STAT + ": expected at least 15 fields, got " + (rest.length + 2));
    }
    return ticks(rest[11], PROC_SELF_STAT + ": field 14 (utime)")
        + ticks(rest[12], PROC_SELF_STAT + ": field 15 (stime)");
  }

  private static long ticks(String s, String what) {
    try {
      long v = Long.parseLong(s);
      if (v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          what + ": expected a whole number of ticks, got \"" + shown(s) + "\"");
    }
  }

  private static String shown(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  /** Whether this reading was taken: {@code /proc} was there. */
  public boolean known() {
    return totalTicks >= 0;
  }

  /**
   * The share of all the machine's CPU time (all cores) between {@code from} and this reading that
   * the hypervisor stole, in 0..1; NaN if either reading is unknown or no tick passed.
   */
  public double stealShareSince(CpuTicks from) {
    long total = ticksSince(from);
    return total <= 0 ? Double.NaN : clamp((stealTicks - from.stealTicks) / (double) total);
  }

  /**
   * The share of all the machine's CPU time (all cores) between {@code from} and this reading that
   * went to other processes (and the kernel's interrupt work): busy time neither this process used
   * nor the hypervisor stole, in 0..1; NaN if either reading is unknown or no tick passed.
   */
  public double otherShareSince(CpuTicks from) {
    long total = ticksSince(from);
    if (total <= 0) {
      return Double.NaN;
    }
    double others =
        (busyTicks - from.busyTicks) - (ownTicks - from.ownTicks) - (stealTicks - from.stealTicks);
    return clamp(others / total);
  }

  private long ticksSince(CpuTicks from) {
    return known() && from.known() ? totalTicks - from.totalTicks : -1;
  }

  private static double clamp(double share) {
    return Math.clamp(share, 0.0, 1.0);
  }
}
