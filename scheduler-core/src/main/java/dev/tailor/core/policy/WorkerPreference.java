package dev.tailor.core.policy;

/** What a worker that has just become free does first when it could do either. */
public enum WorkerPreference {
  /** Steal-first: help the oldest running request that may take another thread, else admit. */
  HELP_FIRST,
  /** Admit-first: admit the request at the head of the queue, else help a running one. */
  ADMIT_FIRST
}
