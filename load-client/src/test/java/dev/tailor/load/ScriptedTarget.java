package dev.tailor.load;

import java.util.concurrent.CompletableFuture;

/**
 * A target on a {@link ManualClock} that answers each request as its script says, when the script
 * says: after a delay, with a result or a failure, or never.
 */
final class ScriptedTarget implements Target {

  /**
   * An answer.
   *
   * @param atNanos when it comes, on the clock
   * @param failure what the request fails with, or null for a result
   */
  record Answer(long atNanos, Throwable failure) {}

  /** What the target answers to query {@code query} sent at {@code nowNanos}, or null for never. */
  @FunctionalInterface
  interface Script {
    Answer answer(int query, long nowNanos);
  }

  private final ManualClock clock;
  private final Script script;

  ScriptedTarget(ManualClock clock, Script script) {
    this.clock = clock;
    this.script = script;
  }

  @Override
  public CompletableFuture<?> send(int query) {
    CompletableFuture<Object> f = new CompletableFuture<>();
    Answer a = script.answer(query, clock.nanoTime());
    if (a != null) {
      clock.at(
          a.atNanos(),
          () -> {
            if (a.failure() == null) {
              f.complete("result");
            } else {
              f.completeExceptionally(a.failure());
            }
          });
    }
    return f;
  }

  @Override
  public String policy() {
    return "scripted";
  }

  @Override
  public void close() {}
}
