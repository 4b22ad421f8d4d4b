package dev.prismindex.engine.internal.watch;

import java.util.concurrent.TimeUnit;

/**
 * When to try a failed refresh again: one second after the first failure, doubling up to a
 * minute. Not thread-safe (the watch's worker, or under its lock).
 */
final class Backoff {

  static final long MIN_MS = 1_000;
  static final long MAX_MS = 60_000;

  private int failures;
  private long retryAtNanos;

  /** Records a failure; returns the delay before the next try, in milliseconds. */
  long failed() {
    failures++;
    long delay = Math.min(MAX_MS, MIN_MS << Math.min(failures - 1, 10));
    retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
    return delay;
  }

  /** Records a success. */
  void succeeded() {
    failures = 0;
  }

  /** Whether the last try failed. */
  boolean failing() {
    return failures > 0;
  }

  /** Failures in a row. */
  int failures() {
    return failures;
  }

  /** Nanoseconds until the next try may run (0 or less: now). */
  long dueIn(long nowNanos) {
    return failures == 0 ? 0 : retryAtNanos - nowNanos;
  }
}
