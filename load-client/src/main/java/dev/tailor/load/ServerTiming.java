package dev.tailor.load;

/**
 * What the server says one request's served time was made of ({@link
 * dev.tailor.core.metrics.RequestRecord}): queued (arrival to admitted), dispatch (admitted to
 * first running) and run (first running to the last thread's end), nanoseconds. Over HTTP it
 * travels as the standard {@code Server-Timing} response header, {@code queued;dur=0.012,
 * dispatch;dur=0.003, run;dur=1.234}, durations in milliseconds, as the search server writes it
 * ({@code dev.tailor.server.ServerTimings}).
 *
 * @param queuedNanos arrival to admitted
 * @param dispatchNanos admitted to first running
 * @param runNanos first running to the last thread's end
 */
public record ServerTiming(long queuedNanos, long dispatchNanos, long runNanos) {

  /** The name of the HTTP response header that carries it. */
  public static final String HEADER = "Server-Timing";

  /**
   * The timings a {@code Server-Timing} header gives, or null where it does not give all three
   * (another server's metrics, a malformed value): a replay then records no breakdown for the
   * request rather than a wrong one.
   */
  public static ServerTiming parse(String header) {
    if (header == null) {
      return null;
    }
    long queued = -1;
    long dispatch = -1;
    long run = -1;
    for (String metric : header.split(",")) {
      String[] params = metric.trim().split(";");
      long dur = -1;
      for (int i = 1; i < params.length; i++) {
        String p = params[i].trim();
        if (p.startsWith("dur=")) {
          try {
            double ms = Double.parseDouble(p.substring(4));
            if (ms >= 0 && ms < 3.6e6) {
              dur = Math.round(ms * 1e6);
            }
          } catch (NumberFormatException e) {
            return null;
          }
        }
      }
      switch (params[0].trim()) {
        case "queued" -> queued = dur;
        case "dispatch" -> dispatch = dur;
        case "run" -> run = dur;
        default -> {
          // another metric: not part of the breakdown
        }
      }
    }
    return queued < 0 || dispatch < 0 || run < 0 ? null : new ServerTiming(queued, dispatch, run);
  }
}
