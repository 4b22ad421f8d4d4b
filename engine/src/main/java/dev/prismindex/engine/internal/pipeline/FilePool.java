package dev.prismindex.engine.internal.pipeline;

import dev.prismindex.engine.internal.Failures;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one task per file on {@code threads} daemon workers ({@code prism-index-worker}) with at
 * most {@code 4 x threads} files in flight, so memory does not grow with the number of files. The
 * first failure of a task is rethrown as it was (an {@link IOException}, a runtime exception, an
 * error), and no file is started after it (a store that refuses every write fails the run at once,
 * not once per remaining file); an interrupt becomes an {@link InterruptedIOException}.
 */
final class FilePool {

  /** The work for one file. */
  @FunctionalInterface
  interface Task<T> {
    void run(T file) throws IOException;
  }

  private FilePool() {}

  static <T> void forEach(List<T> files, int threads, Task<T> task) throws IOException {
    if (files.isEmpty()) {
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "prism-index-worker");
      t.setDaemon(true);
      return t;
    });
    Semaphore inFlight = new Semaphore(threads * 4);
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<?>> futures = new ArrayList<>();
    try {
      for (T file : files) {
        inFlight.acquireUninterruptibly();
        if (failed.get()) {
          break;
        }
        futures.add(pool.submit(() -> {
          try {
            if (!failed.get()) {
              task.run(file);
            }
            return null;
          } catch (Throwable t) {
            failed.set(true);
            throw t;
          } finally {
            inFlight.release();
          }
        }));
        if (futures.size() >= 1024) {
          drain(futures);
        }
      }
      drain(futures);
    } finally {
      pool.shutdownNow();
      try {
        pool.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void drain(List<Future<?>> futures) throws IOException {
    try {
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw (InterruptedIOException) new InterruptedIOException("indexing interrupted")
          .initCause(e);
    } catch (ExecutionException e) {
      Failures.rethrow(e.getCause());
    }
    futures.clear();
  }
}
