package dev.prismindex.index;

import dev.prismindex.repository.AbortSignal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs a query's backend calls under the query's deadline and the caller's abort signal, so that a
 * backend that hangs or ignores cancellation cannot hold the caller past the deadline.
 *
 * <p>Each backend call runs on a composite-owned pool of daemon threads named
 * {@code prism-index-query-<n>-<m>}; the pool keeps no core thread and an idle thread expires after
 * {@link #KEEP_ALIVE_MS}, so there is no timer and no thread left behind per query (weakness 2). The
 * waiting caller blocks in {@code Future.get(remaining)} and is woken early by an abort listener on the
 * caller's signal; the listener is always unregistered and the task always cancelled afterwards.
 *
 * <p>A backend thread is never interrupted: interrupting a thread inside NIO file I/O closes the
 * channel (which would break, for example, a Lucene index). Instead the query's own signal, a child of
 * the caller's, is aborted on timeout or caller abort, and a backend is expected to check it. A backend
 * that ignores it keeps its pool thread until it returns; its late answer is dropped. At most
 * {@link #MAX_THREADS} backend calls run at once per composite; beyond that a call fails with the
 * call's FAILED message.
 *
 * <p>Outcomes of {@link Session#call}: caller's signal aborted before the call, while waiting, or
 * by the time the backend returns, or the calling thread interrupted before the call or by the time
 * the backend returns (the backend then not called, or its answer dropped): TIMEOUT "index query
 * aborted"; deadline passed while waiting: TIMEOUT "index query timed out"; backend returned after
 * the deadline: TIMEOUT "index query exceeded the deadline"; backend threw anything (other than
 * {@link OutOfMemoryError}, which propagates): FAILED with the call's fixed message (TIMEOUT "index
 * query aborted" if the caller had aborted), the backend's exception kept only as the cause.
 */
final class QueryRunner {

  /** How long an idle pool thread lives. */
  static final long KEEP_ALIVE_MS = 1_000;
  /** The most backend calls one composite runs at once. */
  static final int MAX_THREADS = 128;

  private static final AtomicInteger RUNNERS = new AtomicInteger();

  private final ThreadPoolExecutor executor;
  private final String threadNamePrefix;
  private final LongSupplier nanoClock;

  QueryRunner(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.threadNamePrefix = "prism-index-query-" + RUNNERS.incrementAndGet() + "-";
    AtomicInteger threads = new AtomicInteger();
    this.executor = new ThreadPoolExecutor(
        0, MAX_THREADS, KEEP_ALIVE_MS, TimeUnit.MILLISECONDS, new SynchronousQueue<>(),
        task -> {
          Thread thread = new Thread(task, threadNamePrefix + threads.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** The name prefix of this runner's threads (for tests that count them). */
  String threadNamePrefix() {
    return threadNamePrefix;
  }

  /** Stops accepting calls; running backend calls are left to finish (never interrupted). */
  void shutdown() {
    executor.shutdown();
  }

  /**
   * Opens the scope of one query: its deadline starts now and its signal is a child of
   * {@code callerSignal} (or a fresh signal when the caller gave none).
   */
  Session open(@Nullable AbortSignal callerSignal, long timeoutMs) {
    return new Session(callerSignal, nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(timeoutMs));
  }

  /** A backend call that may throw anything. */
  @FunctionalInterface
  interface BackendCall<T> {
    T call() throws Exception;
  }

  /** One query: a deadline, the caller's signal and the child signal handed to the backend. */
  final class Session implements AutoCloseable {
    private final @Nullable AbortSignal callerSignal;
    private final AbortSignal.@Nullable Linked link;
    private final AbortSignal signal;
    private final long deadlineNanos;

    private Session(@Nullable AbortSignal callerSignal, long deadlineNanos) {
      this.callerSignal = callerSignal;
      this.deadlineNanos = deadlineNanos;
      if (callerSignal == null) {
        this.link = null;
        this.signal = AbortSignal.create();
      } else {
        this.link = callerSignal.link();
        this.signal = link.signal();
      }
    }

    /** The signal to hand to the backend: aborted on caller abort or when the deadline passes. */
    AbortSignal signal() {
      return signal;
    }

    /** Milliseconds left until the deadline, rounded up, at least 1. */
    long remainingMs() {
      long nanos = deadlineNanos - nanoClock.getAsLong();
      return Math.max(1, (nanos + 999_999) / 1_000_000);
    }

    /**
     * Runs {@code work} on the pool and waits for it until the deadline or a caller abort.
     *
     * @throws IndexException TIMEOUT or FAILED (with {@code failureMessage}) as described on
     *     {@link QueryRunner}
     */
    <T> T call(BackendCall<T> work, String failureMessage) {
      if (callerAborted() || abortedByInterrupt()) {
        throw timeout(IndexMessages.QUERY_ABORTED, null);
      }
      long remaining = deadlineNanos - nanoClock.getAsLong();
      if (remaining <= 0) {
        signal.abort();
        throw timeout(IndexMessages.QUERY_TIMED_OUT, null);
      }
      CompletableFuture<T> outcome = new CompletableFuture<>();
      Future<?> task;
      try {
        task = executor.submit(() -> {
          try {
            outcome.complete(work.call());
          } catch (Throwable failure) {
            outcome.completeExceptionally(failure);
          }
        });
      } catch (RejectedExecutionException rejected) {
        String message = executor.isShutdown() ? IndexMessages.DISPOSED : failureMessage;
        throw new IndexException(IndexErrorCode.ERR_PRISM_INDEX_FAILED, message, rejected);
      }
      AbortSignal.Registration wakeOnAbort = callerSignal == null
          ? () -> { }
          : callerSignal.onAbort(() -> outcome.completeExceptionally(new CallerAborted()));
      try {
        T value = outcome.get(remaining, TimeUnit.NANOSECONDS);
        if (callerAborted() || abortedByInterrupt()) {
          throw timeout(IndexMessages.QUERY_ABORTED, null);
        }
        if (nanoClock.getAsLong() > deadlineNanos) {
          signal.abort();
          throw timeout(IndexMessages.QUERY_EXCEEDED_DEADLINE, null);
        }
        return value;
      } catch (TimeoutException deadlinePassed) {
        signal.abort();
        throw timeout(IndexMessages.QUERY_TIMED_OUT, null);
      } catch (ExecutionException failed) {
        Throwable cause = failed.getCause();
        if (cause instanceof CallerAborted) {
          throw timeout(IndexMessages.QUERY_ABORTED, null);
        }
        if (cause instanceof OutOfMemoryError oom) {
          throw oom;
        }
        if (callerAborted()) {
          throw timeout(IndexMessages.QUERY_ABORTED, cause);
        }
        throw new IndexException(IndexErrorCode.ERR_PRISM_INDEX_FAILED, failureMessage, cause);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        signal.abort();
        throw timeout(IndexMessages.QUERY_ABORTED, interrupted);
      } finally {
        wakeOnAbort.close();
        task.cancel(false);
      }
    }

    /** Unlinks the child signal from the caller's. */
    @Override
    public void close() {
      if (link != null) {
        link.close();
      }
    }

    private boolean callerAborted() {
      return callerSignal != null && callerSignal.isAborted();
    }

    /**
     * Whether the calling thread is interrupted (its status kept), the query's signal then
     * aborted. Checked before the call and after the answer: a future that completed before the
     * wait began returns without looking at the interrupt.
     */
    private boolean abortedByInterrupt() {
      if (!Thread.currentThread().isInterrupted()) {
        return false;
      }
      signal.abort();
      return true;
    }
  }

  private static IndexException timeout(String message, @Nullable Throwable cause) {
    return cause == null
        ? new IndexException(IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, message)
        : new IndexException(IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, message, cause);
  }

  /** Completes a waiting call when the caller aborts; never thrown to callers. */
  private static final class CallerAborted extends Exception {
    private static final long serialVersionUID = 1L;

    CallerAborted() {
      super(null, null, false, false);
    }
  }
}
