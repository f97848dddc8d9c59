package dev.tailor.sim;

import java.util.PriorityQueue;

/**
 * The operating system's time-slicing of runnable threads over the cores, as processor sharing:
 * with {@code r} threads running on {@code c} cores each progresses at {@code min(1, c / r)} of a
 * core, slowed further by the machine model's co-run factor for the {@code min(r, c)} cores at
 * work. Processor sharing is the limit of round-robin time-slicing as its quantum shrinks; at the
 * quantum of a Linux scheduler (a few milliseconds against searches of tens) it says when a thread
 * finishes to within a quantum, which is the resolution a P99 of this simulator has anyway.
 *
 * <p>Every running thread progresses at the same rate, so one clock of work done by each (the
 * virtual work time) orders their ends: a job of {@code w} nanoseconds of work started at virtual
 * time {@code v} ends when the virtual time reaches {@code v + w}. Advancing, starting and ending
 * cost O(log n) in the running jobs.
 *
 * <p>Not thread-safe; the simulator is single-threaded.
 */
final class SharedCores {

  /** A piece of work on one thread, its end marked on the virtual work time. */
  static final class Job {
    final Object owner;
    double endMark; // the virtual time at which it is done

    Job(Object owner) {
      this.owner = owner;
    }
  }

  private final int cores;
  private final MachineModel machine; // null: no co-run slowdown
  private final PriorityQueue<Job> running =
      new PriorityQueue<>((a, b) -> Double.compare(a.endMark, b.endMark));
  private double virtual; // work done by each running thread since the start, ns
  private long at; // the real time the virtual time was last brought to
  private double stretch = 1; // real nanoseconds per nanosecond of work, now

  SharedCores(int cores, MachineModel machine) {
    if (cores < 1) {
      throw new IllegalArgumentException("need at least 1 core, got " + cores);
    }
    this.cores = cores;
    this.machine = machine;
  }

  /** Threads running now. */
  int running() {
    return running.size();
  }

  /** Brings the virtual time to real time {@code now}. */
  void advanceTo(long now) {
    if (now > at) {
      if (!running.isEmpty()) {
        virtual += (now - at) / stretch;
      }
      at = now;
    }
  }

  /**
   * Nothing runs from {@code now} for {@code nanos} (the whole process stopped): every running
   * job's end moves on by it.
   */
  void pause(long now, long nanos) {
    advanceTo(now);
    at = now + Math.max(0, nanos);
  }

  /** Starts {@code job} of {@code workNanos} at {@code now}; the other threads slow down by it. */
  void start(Job job, double workNanos, long now) {
    advanceTo(now);
    job.endMark = virtual + Math.max(0, workNanos);
    running.add(job);
    restretch();
  }

  /** When the first running job ends, real time, or {@link Long#MAX_VALUE} if none runs. */
  long nextEnd() {
    Job first = running.peek();
    if (first == null) {
      return Long.MAX_VALUE;
    }
    double left = Math.max(0, first.endMark - virtual) * stretch;
    return left >= Long.MAX_VALUE - at ? Long.MAX_VALUE : at + (long) Math.ceil(left);
  }

  /**
   * Removes and returns a job whose work is done at {@code now}, or null if none is: call until
   * null, then act on the ends (the others speed up from {@code now}).
   */
  Job takeEnded(long now) {
    advanceTo(now);
    Job first = running.peek();
    // A job whose end fell within the rounding of the clock to whole nanoseconds is done.
    if (first == null || first.endMark > virtual + 1e-3) {
      return null;
    }
    running.poll();
    restretch();
    return first;
  }

  /** Real nanoseconds per nanosecond of work for {@code threads} running: for tests and docs. */
  double stretchFor(int threads) {
    if (threads < 1) {
      return 1;
    }
    double f = machine == null ? 1 : machine.coRunAt(Math.min(threads, cores));
    return threads > cores ? f * threads / cores : f;
  }

  private void restretch() {
    stretch = stretchFor(running.size());
  }
}
