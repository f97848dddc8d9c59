package dev.tailor.opensearch;

/**
 * The node's load at one moment, as the decider and {@code GET /_tailor/stats} read it: the
 * scheduler's figures and the query phases running beside it, outside Tailor. Each figure is read
 * once, so the components need not agree with one another to the request (they are read without a
 * lock, as the scheduler's policies read them).
 *
 * @param workers the scheduler's thread budget ({@code tailor.workers})
 * @param activeRequests Tailor requests running
 * @param queuedRequests query phases waiting for admission
 * @param busyWorkers threads of the budget busy on Tailor requests
 * @param sequentialRunning query phases running sequentially without Tailor
 */
record NodeLoad(
    int workers, int activeRequests, int queuedRequests, int busyWorkers, int sequentialRunning) {

  /**
   * Threads busy searching: those busy on Tailor requests and those running sequential query
   * phases, which share the node's cores.
   */
  int busyThreads() {
    return busyWorkers + sequentialRunning;
  }
}
