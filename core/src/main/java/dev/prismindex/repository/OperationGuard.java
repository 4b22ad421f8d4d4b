package dev.prismindex.repository;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/** The abort signal and deadline of one operation; {@link #check()} is called at every step. */
final class OperationGuard {

  private final @Nullable AbortSignal signal;
  private final LongSupplier nanoClock;
  private final long deadlineNanos;

  private OperationGuard(@Nullable AbortSignal signal, LongSupplier nanoClock, long deadlineNanos) {
    this.signal = signal;
    this.nanoClock = nanoClock;
    this.deadlineNanos = deadlineNanos;
  }

  /** Starts the clock: the operation may run for {@code budgetMs} milliseconds from now. */
  static OperationGuard start(@Nullable AbortSignal signal, long budgetMs, LongSupplier nanoClock) {
    return new OperationGuard(
        signal, nanoClock, nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(budgetMs));
  }

  /** The caller's signal, if any. */
  @Nullable AbortSignal signal() {
    return signal;
  }

  /**
   * Throws {@link OperationStopped} when the signal is aborted (checked first) or the deadline has
   * been reached.
   */
  void check() {
    if (signal != null && signal.isAborted()) {
      throw new OperationStopped(TruncationReason.ABORT);
    }
    if (nanoClock.getAsLong() - deadlineNanos >= 0) {
      throw new OperationStopped(TruncationReason.TIME);
    }
  }

  /** Milliseconds left before the deadline (at least 1, so it can bound a wait). */
  long remainingMillis() {
    long nanos = deadlineNanos - nanoClock.getAsLong();
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos));
  }
}
