package dev.prismindex.internal;

/**
 * The one rule by which progress reports are thinned out (the engine's progress listener, the MCP
 * server's progress notifications): an event passes when it is forced (a phase begins, a phase
 * ends), when it is the first, or when at least the interval has passed since the last one that
 * passed; any other is dropped. Not thread-safe: its owner serialises the calls.
 */
public final class Throttle {

  private final long intervalNanos;
  private long lastNanos;
  private boolean passedOnce;

  /** A throttle letting through at most one unforced event per {@code intervalNanos}. */
  public Throttle(long intervalNanos) {
    if (intervalNanos < 0) {
      throw new IllegalArgumentException("intervalNanos must not be negative: " + intervalNanos);
    }
    this.intervalNanos = intervalNanos;
  }

  /**
   * Whether an event at {@code nowNanos} ({@link System#nanoTime()}) passes; when it does, it is
   * the last one that passed from here on.
   */
  public boolean pass(long nowNanos, boolean force) {
    if (!force && passedOnce && nowNanos - lastNanos < intervalNanos) {
      return false;
    }
    lastNanos = nowNanos;
    passedOnce = true;
    return true;
  }
}
