package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tailor.core.policy.Policies;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
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
            .policy(Policies.rampUp(Duration.ofMillis(10), 4)) // one thread, one more every 10 ms
            .workers(8) // the parallelism budget
            .tuning(Tuning.defaults().withQueueCapacity(1_000)) // every knob in one value
            .build()) {
      CompletableFuture<Long> matches = scheduler.submit(() -> countMatches(0, 16_000));
      System.out.println(matches.join());
      // --- README example ends
      result = matches.join();
    }
    assertEquals(8_000, result);
  }
}
