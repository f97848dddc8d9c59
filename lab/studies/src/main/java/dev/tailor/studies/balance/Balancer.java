package dev.tailor.studies.balance;

/**
 * How requests arriving at a server of {@code W} cores reach a core. Every request runs on one core
 * from start to end (degree 1: the load-balancing question is where a request waits, not how it is
 * split), without preemption, as in the simulation of McClure et al., "Efficient Scheduling
 * Policies for Microsecond-Scale Tasks" (NSDI'22, §4.1). A balancer is stateless; {@link #run} is
 * deterministic for its inputs.
 */
public interface Balancer {

  /** The cost of one cross-core load-balancing operation in the paper's simulation (§4.1). */
  long PAPER_OPERATION_NANOS = 100;

  /** A short name for tables, e.g. {@code single-queue}. */
  String name();

  /**
   * Runs the requests.
   *
   * @param arrivalNanos the arrival times, ascending
   * @param serviceNanos each request's time on a core, positive
   * @param cores the number of cores, at least 1
   * @param seed seeds any random choice (placement, stealing victims)
   * @throws IllegalArgumentException if the arrays differ in length, the arrivals are not
   *     ascending, a service time is not positive or {@code cores < 1}
   */
  Run run(long[] arrivalNanos, long[] serviceNanos, int cores, long seed);

  /**
   * Tailor's design: one shared FIFO admission queue; a free core takes the oldest request. The
   * queue is a lock-protected structure: every enqueue and every dequeue holds it for {@code
   * operationNanos + contentionNanos * w}, {@code w} the number of operations already waiting for
   * it, and operations go through it one at a time in the order they asked. Contention is thus
   * modelled twice over: waiting in line for the lock grows with the cores that contend, and {@code
   * contentionNanos} adds the cost of a hand-off that itself grows with the waiters (a spinning
   * lock whose release every waiter re-reads). The paper idealizes the single queue to no cost
   * (§4.1); with {@code operationNanos} at its 100 ns per cross-core operation a request costs the
   * queue 200 ns, a ceiling of 5 million requests per second, the figure it reports for Shinjuku's
   * single queue (§3.2.1). An idle core waits for the queue without cost and is handed a request as
   * soon as one is enqueued.
   *
   * @throws IllegalArgumentException if a cost is negative
   */
  static Balancer singleQueue(long operationNanos, long contentionNanos) {
    return new SingleQueue(operationNanos, contentionNanos);
  }

  /**
   * No load balancing: each arrival joins the FIFO queue of a core chosen uniformly at random and
   * waits there, as with a NIC spraying packets over cores (the paper's "no load balancing").
   */
  static Balancer randomPlacement() {
    return new RandomPlacement();
  }

  /**
   * Random placement plus work stealing, the paper's winner (§3.2.1, §4.2.1): an idle core checks
   * the other cores' queues one by one in a cyclic order from a random starting core, each check
   * costing {@code checkNanos}, and steals the oldest request of the first non-empty one, the steal
   * costing {@code checkNanos} more. Its own queue it takes from at no cost. The paper steals half
   * of the victim's queue; stealing one request is the simpler runtime and the same when queues are
   * short, as they are below saturation.
   *
   * @throws IllegalArgumentException if the cost is negative
   */
  static Balancer workStealing(long checkNanos) {
    return new WorkStealing(checkNanos);
  }

  /** Checks a run's inputs, naming what is wrong. */
  static void checkInputs(long[] arrivalNanos, long[] serviceNanos, int cores) {
    if (cores < 1) {
      throw new IllegalArgumentException("cores must be >= 1, got " + cores);
    }
    if (arrivalNanos.length != serviceNanos.length) {
      throw new IllegalArgumentException(
          arrivalNanos.length + " arrivals but " + serviceNanos.length + " service times");
    }
    for (int i = 0; i < arrivalNanos.length; i++) {
      if (serviceNanos[i] <= 0) {
        throw new IllegalArgumentException(
            "service time " + i + " must be > 0 ns, got " + serviceNanos[i]);
      }
      if (arrivalNanos[i] < 0 || (i > 0 && arrivalNanos[i] < arrivalNanos[i - 1])) {
        throw new IllegalArgumentException(
            "arrivals must be >= 0 and ascending; arrival " + i + " is " + arrivalNanos[i]);
      }
    }
  }

  /** Checks a cost. */
  static long checkCost(long nanos, String what) {
    if (nanos < 0) {
      throw new IllegalArgumentException(what + " must be >= 0 ns, got " + nanos);
    }
    return nanos;
  }
}
