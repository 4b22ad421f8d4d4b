package dev.prismindex.engine.internal.run;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the runs of every store share: one write at a time, closing once none runs, and the state
 * the seam's status reports (the last run failed, a run is under way, when the last one succeeded).
 */
final class RunGate {

  /** The body of a write. */
  @FunctionalInterface
  interface Body<T> {
    T run() throws IOException;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final AtomicInteger running = new AtomicInteger();
  private volatile boolean failed;
  private volatile long verifiedAtMs;
  private volatile boolean closed;

  /**
   * Runs {@code body} as the one write under way, counted as running meanwhile.
   *
   * @throws IllegalStateException once {@link #close} ran
   */
  <T> T write(Body<T> body) throws IOException {
    if (closed) {
      throw new IllegalStateException("index is closed");
    }
    lock.lock();
    running.incrementAndGet();
    try {
      return body.run();
    } finally {
      running.decrementAndGet();
      lock.unlock();
    }
  }

  /** Records a run that failed: status reports it until one succeeds. */
  void failed(boolean value) {
    failed = value;
  }

  /** Records a run that succeeded at {@code nowMs} (epoch ms): the index was current then. */
  void succeeded(long nowMs) {
    failed = false;
    verifiedAtMs = nowMs;
  }

  boolean failed() {
    return failed;
  }

  long verifiedAtMs() {
    return verifiedAtMs;
  }

  boolean running() {
    return running.get() > 0;
  }

  boolean closed() {
    return closed;
  }

  /**
   * Marks the index closed once no write runs, then runs {@code action} (closing the parts).
   * Idempotent: the action runs once.
   */
  void close(Runs.Exclusive action) throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      action.run();
    } finally {
      lock.unlock();
    }
  }
}
