package dev.tailor.measure;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Measures the machine's own noise while something else is measured: a daemon thread ({@value
 * #THREAD_NAME}) that does nothing but sleep, and readings over windows ({@link Window}) of how
 * late it woke up, of the garbage collector's pauses and of the CPU time the hypervisor and other
 * processes took. A sweep runs one meter and reads one window per point ({@link MachineNoise}).
 *
 * <p><b>Stalls</b>, by jHiccup's method (Gil Tene's jHiccup): the thread sleeps {@link
 * #periodNanos} ({@link #DEFAULT_PERIOD_NANOS 5 ms} by default, jHiccup's 1 ms costing more than 1%
 * of a core here) again and again and records how much longer than asked each sleep took, floored
 * at 0, into an HdrHistogram with the correction for coordinated omission ({@link
 * Histogram#recordValueWithExpectedInterval} with the period as the expected interval), as jHiccup
 * does. Whatever delays this thread (a run queue with other threads ahead of it, a GC pause or
 * other safepoint, the hypervisor running another guest) would have delayed any thread of this JVM,
 * so a stall is a lower bound on what a request could have suffered. jHiccup itself ({@code
 * org.jhiccup:jHiccup} on Maven Central) is a java agent and standalone program that writes its own
 * log files on its own reporting interval, not a library with windows, so the method is done here:
 * a {@link SingleWriterRecorder} that the thread records into without allocating or locking, and
 * windows that take its interval histograms. Values are nanoseconds, to two significant digits
 * (jHiccup's precision), up to an hour.
 *
 * <p><b>GC pauses</b> come from the {@link GarbageCollectorMXBean}s' notifications ({@link
 * GarbageCollectionNotificationInfo}): each one is a stop-the-world pause except the concurrent
 * cycles, told by their action {@code "end of GC cycle"} or their collector's name ending in {@code
 * " Cycles"} (ZGC's {@code "ZGC Cycles"}, {@code "ZGC Major Cycles"}, {@code "ZGC Minor Cycles"},
 * Shenandoah's {@code "Shenandoah Cycles"}), whose duration is mostly concurrent work; their pauses
 * come as their own notifications ({@code "ZGC Pauses"}, {@code "ZGC Major Pauses"}, {@code
 * "Shenandoah Pauses"}). G1's {@code "G1 Young Generation"} and {@code "G1 Old Generation"} are
 * pauses, and so is {@code "G1 Concurrent GC"} despite its name: since JDK 20 it reports the Remark
 * and Cleanup pauses of G1's concurrent cycle (action {@code "end of concurrent GC pause"}), not
 * the cycle. Parallel and Serial collections are all pauses. The JVM reports each pause in whole
 * milliseconds (a sub-millisecond ZGC pause counts, as 0 ms), and after the pause, from its own
 * notification thread: a pause in a window's last moments may land in the next window.
 *
 * <p><b>Steal and other processes' CPU</b> come from Linux's {@code /proc/stat} and {@code
 * /proc/self/stat} ({@link CpuTicks}), read when a window begins and each time it is read, as
 * shares of all the machine's CPU time (all cores); they are NaN where {@code /proc} is absent
 * (macOS). Their resolution is the kernel's clock tick (10 ms of one core at 100 Hz).
 *
 * <p><b>Kept whole</b> for the simulator's machine model: each window also holds every sleep's
 * oversleep once, without the correction (a stall of any length is one count, so that counts over
 * the window's length are a rate of stalls), and every GC pause's duration ({@link
 * MachineNoise#oversleeps}, {@link MachineNoise#gcPauseDurations}).
 *
 * <p><b>The meter's own cost</b> is its thread's CPU time ({@link ThreadMXBean#getThreadCpuTime})
 * over the window, as a share of one core: 200 wake-ups a second at the default period.
 *
 * <p>Thread-safe: windows can be opened, read and closed from any thread, and overlap.
 */
public final class NoiseMeter implements AutoCloseable {

  /**
   * The default sleep period, 5 ms, so that the meter costs at most 1% of one core. jHiccup's
   * default is 1 ms, but on the 2-core virtual machine Tailor is measured on a wake-up costs 20-40
   * µs of CPU (a C loop of {@code nanosleep} costs as much: it is the machine's timer and wake-up,
   * not Java's), so that 1 ms costs 1.9-2.4% of a core, 2 ms 1.0-1.1% and 5 ms 0.5-0.8% ({@code
   * ./tailor bench noise-meter}). The oversleeps are measured as precisely at 5 ms; there are fewer
   * of them (200 a second), and a stall shorter than the period gets no correction.
   */
  public static final long DEFAULT_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /** The name of the meter's thread. */
  public static final String THREAD_NAME = "tailor-noise-meter";

  /** The longest stall the histograms hold; a longer one counts as this long. */
  static final long HIGHEST_NANOS = TimeUnit.HOURS.toNanos(1);

  /** The histograms' precision, in significant decimal digits, as jHiccup's. */
  static final int DIGITS = 2;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long periodNanos;
  private final SingleWriterRecorder recorder = new SingleWriterRecorder(HIGHEST_NANOS, DIGITS);

  /** Every sleep's oversleep once, uncorrected: one stall, one count, for the machine model. */
  private final SingleWriterRecorder raw = new SingleWriterRecorder(HIGHEST_NANOS, DIGITS);

  private final Object lock = new Object();
  private final List<Window> open = new ArrayList<>(); // guarded by lock
  private final List<Window> pending = new ArrayList<>(); // guarded by lock
  private Histogram spare; // the recorder's last interval histogram, to recycle; guarded by lock
  private Histogram rawSpare; // likewise of the uncorrected recorder; guarded by lock
  private volatile boolean anyPending; // whether a window waits for the thread to begin it
  private volatile long nextBegin; // if so, the earliest pending window's begin
  private volatile boolean closed;
  private final Thread thread; // null for a meter whose samples a test records
  private final List<NotificationEmitter> collectors = new ArrayList<>();
  private final NotificationListener onGc = (n, handback) -> notified(n);

  private NoiseMeter(long periodNanos, boolean sampling) {
    if (periodNanos < 1) {
      throw new IllegalArgumentException("the period must be positive, got " + periodNanos);
    }
    this.periodNanos = periodNanos;
    this.thread =
        sampling ? Thread.ofPlatform().name(THREAD_NAME).daemon().unstarted(this::run) : null;
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (bean instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(onGc, null, null);
        collectors.add(emitter);
      }
    }
  }

  /** A meter sleeping {@link #DEFAULT_PERIOD_NANOS} at a time, its thread started. */
  public static NoiseMeter start() {
    return start(DEFAULT_PERIOD_NANOS);
  }

  /**
   * A meter sleeping {@code periodNanos} at a time, its thread started.
   *
   * @throws IllegalArgumentException if the period is not positive
   */
  public static NoiseMeter start(long periodNanos) {
    NoiseMeter meter = new NoiseMeter(periodNanos, true);
    meter.thread.start();
    return meter;
  }

  /**
   * A meter without a thread, whose samples the caller records with {@link #recordSleep} (from one
   * thread at a time), for tests.
   */
  static NoiseMeter unstarted(long periodNanos) {
    return new NoiseMeter(periodNanos, false);
  }

  /**
   * The machine's noise over the next {@code length}, on a meter of its own at the default period,
   * the calling thread waiting meanwhile (e.g. to say how noisy an idle machine is before a run).
   */
  public static MachineNoise measure(Duration length) throws InterruptedException {
    try (NoiseMeter meter = start();
        Window window = meter.window()) {
      Thread.sleep(length);
      return window.read();
    }
  }

  /** How long the meter sleeps at a time, in nanoseconds. */
  public long periodNanos() {
    return periodNanos;
  }

  /**
   * A window that begins now: its reading counts from now on. Reading {@code /proc} to begin it
   * takes some tens of microseconds of the calling thread; {@link #windowFrom} spares a thread that
   * cannot wait.
   *
   * @throws IllegalStateException if the meter is closed
   */
  public Window window() {
    synchronized (lock) {
      checkOpen();
      Window w = new Window(System.nanoTime());
      flush();
      w.begin(System.nanoTime());
      open.add(w);
      return w;
    }
  }

  /**
   * A window that begins at the meter's first sample at or after {@code nanoTime} (on {@link
   * System#nanoTime}'s scale), the meter's own thread taking its first readings then, so that the
   * caller (such as a load client about to send its first measured request) pays nothing at that
   * moment. A window read before the meter's thread began it begins when read.
   *
   * @throws IllegalStateException if the meter is closed
   */
  public Window windowFrom(long nanoTime) {
    synchronized (lock) {
      checkOpen();
      Window w = new Window(nanoTime);
      pending.add(w);
      if (!anyPending || nanoTime - nextBegin < 0) {
        nextBegin = nanoTime;
      }
      anyPending = true;
      return w;
    }
  }

  /**
   * Stops the thread and the GC notifications; every window still open is closed with the reading
   * it has now. Idempotent.
   */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      List<Window> windows = new ArrayList<>(open);
      windows.addAll(pending);
      for (Window w : windows) {
        w.close();
      }
      closed = true;
    }
    for (NotificationEmitter emitter : collectors) {
      try {
        emitter.removeNotificationListener(onGc);
      } catch (ListenerNotFoundException e) {
        // not registered: nothing to remove
      }
    }
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(TimeUnit.SECONDS.toMillis(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the noise meter is closed");
    }
  }

  /** The thread: sleeps, records the oversleep, begins the windows that are due, until closed. */
  private void run() {
    long millis = periodNanos / 1_000_000;
    int nanos = (int) (periodNanos % 1_000_000);
    try {
      while (!closed) {
        long before = System.nanoTime();
        Thread.sleep(millis, nanos);
        long after = System.nanoTime();
        recordSleep(after - before);
        if (anyPending && after - nextBegin >= 0) {
          beginDue(after);
        }
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  /**
   * Records one sleep of the period that took {@code sleptNanos}: its oversleep, {@code sleptNanos}
   * minus the period and at least 0, corrected for coordinated omission, and once more uncorrected
   * (one count per sleep, the machine model's stall events). Allocates nothing; one thread at a
   * time (the meter's own, or a test's on an {@link #unstarted} meter).
   */
  void recordSleep(long sleptNanos) {
    long over = Math.min(HIGHEST_NANOS, Math.max(0, sleptNanos - periodNanos));
    recorder.recordValueWithExpectedInterval(over, periodNanos);
    raw.recordValue(over);
  }

  /**
   * Records a collection the JVM reported: into every open window, if it was a pause.
   *
   * @param gcName the collector's name, e.g. {@code "G1 Young Generation"}
   * @param gcAction what it did, e.g. {@code "end of minor GC"} or {@code "end of GC cycle"}
   * @param durationMillis how long it took, in milliseconds
   */
  void recordGc(String gcName, String gcAction, long durationMillis) {
    if (!isPause(gcName, gcAction)) {
      return;
    }
    long nanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, durationMillis));
    synchronized (lock) {
      for (Window w : open) {
        w.gcPauses++;
        w.gcTotalNanos += nanos;
        w.gcMaxNanos = Math.max(w.gcMaxNanos, nanos);
        w.gcDurations.recordValue(Math.min(HIGHEST_NANOS, nanos));
      }
    }
  }

  /**
   * Whether a collection the JVM reported was a stop-the-world pause: all are but the concurrent
   * cycles (action {@code "end of GC cycle"}, or a collector named {@code "... Cycles"}).
   */
  static boolean isPause(String gcName, String gcAction) {
    boolean cycle =
        "end of GC cycle".equals(gcAction) || (gcName != null && gcName.endsWith(" Cycles"));
    return !cycle;
  }

  private void notified(Notification n) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())
        || !(n.getUserData() instanceof CompositeData data)) {
      return;
    }
    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(data);
    recordGc(info.getGcName(), info.getGcAction(), info.getGcInfo().getDuration());
  }

  /** On the meter's thread: begins the pending windows whose time has come. */
  private void beginDue(long now) {
    synchronized (lock) {
      flush();
      boolean any = false;
      long next = 0;
      for (Iterator<Window> it = pending.iterator(); it.hasNext(); ) {
        Window w = it.next();
        if (now - w.from >= 0) {
          it.remove();
          w.begin(now);
          open.add(w);
        } else if (!any || w.from - next < 0) {
          next = w.from;
          any = true;
        }
      }
      nextBegin = next;
      anyPending = any;
    }
  }

  /** Hands the samples recorded since the last flush to every open window; holding the lock. */
  private void flush() {
    Histogram interval = recorder.getIntervalHistogram(spare);
    Histogram rawInterval = raw.getIntervalHistogram(rawSpare);
    if (interval.getTotalCount() > 0) {
      for (Window w : open) {
        w.stalls.add(interval);
      }
    }
    if (rawInterval.getTotalCount() > 0) {
      for (Window w : open) {
        w.oversleeps.add(rawInterval);
      }
    }
    spare = interval;
    rawSpare = rawInterval;
  }

  /** The meter thread's CPU time so far, or -1 where unknown. */
  private long meterCpuNanos() {
    if (thread == null
        || !THREADS.isThreadCpuTimeSupported()
        || !THREADS.isThreadCpuTimeEnabled()) {
      return -1;
    }
    return THREADS.getThreadCpuTime(thread.threadId());
  }

  /**
   * One window of a meter: what the meter saw from the window's beginning to each {@link #read}, or
   * to its {@link #close}. Thread-safe.
   */
  public final class Window implements AutoCloseable {
    private final long from;
    // All guarded by the meter's lock.
    private final Histogram stalls = new Histogram(HIGHEST_NANOS, DIGITS);
    private final Histogram oversleeps = new Histogram(HIGHEST_NANOS, DIGITS);
    private final Histogram gcDurations = new Histogram(HIGHEST_NANOS, DIGITS);
    private boolean begun;
    private long begunAt;
    private CpuTicks cpuFrom;
    private long meterCpuFrom;
    private long gcPauses;
    private long gcTotalNanos;
    private long gcMaxNanos;
    private MachineNoise last; // the reading at close, once closed

    private Window(long from) {
      this.from = from;
    }

    /** Takes the readings the window counts from; holding the lock. */
    private void begin(long now) {
      begun = true;
      begunAt = now;
      cpuFrom = CpuTicks.read();
      meterCpuFrom = meterCpuNanos();
    }

    /**
     * What the meter saw from the window's beginning until now, or until the window was closed.
     * Reads {@code /proc}: some tens of microseconds.
     */
    public MachineNoise read() {
      synchronized (lock) {
        if (last != null) {
          return last;
        }
        flush(); // before beginning it, so that the samples until now are not its own
        if (!begun) {
          pending.remove(this);
          begin(System.nanoTime());
          open.add(this);
        }
        long now = System.nanoTime();
        long window = Math.max(0, now - begunAt);
        CpuTicks cpu = CpuTicks.read();
        long meterCpu = meterCpuNanos();
        boolean empty = stalls.getTotalCount() == 0;
        return new MachineNoise(
            window,
            periodNanos,
            stalls.getTotalCount(),
            empty ? 0 : stalls.getValueAtPercentile(50),
            empty ? 0 : stalls.getValueAtPercentile(99),
            empty ? 0 : stalls.getValueAtPercentile(99.9),
            empty ? 0 : stalls.getMaxValue(),
            gcPauses,
            gcTotalNanos,
            gcMaxNanos,
            cpu.stealShareSince(cpuFrom),
            cpu.otherShareSince(cpuFrom),
            meterCpu < 0 || meterCpuFrom < 0 || window == 0
                ? Double.NaN
                : Math.max(0, meterCpu - meterCpuFrom) / (double) window,
            PointResult.encode(oversleeps),
            PointResult.encode(gcDurations));
      }
    }

    /** Stops the window, keeping what it read until now for {@link #read}. Idempotent. */
    @Override
    public void close() {
      synchronized (lock) {
        if (last == null) {
          last = read();
          open.remove(this);
          pending.remove(this);
        }
      }
    }
  }
}
