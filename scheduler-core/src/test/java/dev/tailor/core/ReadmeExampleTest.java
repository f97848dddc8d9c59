package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/** The example of docs/usage.md, verbatim, so that it keeps compiling and keeps working. */
class ReadmeExampleTest {

  /** The example's stand-in for real work: the even numbers in {@code [from, to)}. */
  private static long countMatches(int from, int to) {
    long n = 0;
    for (int i = from; i < to; i++) {
      if (i % 2 == 0) {
        n++;
      }
    }
    return n;
  }

  @Test
  void theReadmeExampleRuns() {
    long result;
    // --- README example starts
    try (Scheduler scheduler =
        Scheduler.builder()
            .policy("rampup:10ms,4") // one thread, one more every 10 ms of run time, up to 4
            .workers(8) // the parallelism budget
            .build()) {
      CompletableFuture<Long> matches =
          scheduler.submit(
              ctx -> {
                LongAdder total = new LongAdder();
                for (int part = 0; part < 16; part++) {
                  int from = part * 1_000;
                  ctx.fork(() -> total.add(countMatches(from, from + 1_000))); // a work unit
                }
                ctx.joinUnits(); // run what is still held here, wait for the helpers
                return total.sum();
              });
      System.out.println(matches.join());
      // --- README example ends
      result = matches.join();
    }
    assertEquals(8_000, result);
  }
}
