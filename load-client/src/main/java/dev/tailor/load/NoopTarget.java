package dev.tailor.load;

import java.util.concurrent.CompletableFuture;

/**
 * A target that answers at once, on the sending thread: what the load client itself costs, for
 * {@code bench load-client}.
 */
public final class NoopTarget implements Target {

  private static final CompletableFuture<Object> DONE = CompletableFuture.completedFuture(null);

  @Override
  public CompletableFuture<?> send(int query) {
    return DONE;
  }

  @Override
  public String policy() {
    return "none";
  }

  @Override
  public void close() {}
}
