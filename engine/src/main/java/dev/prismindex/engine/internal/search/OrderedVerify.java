package dev.prismindex.engine.internal.search;

import dev.prismindex.repository.AbortSignal;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Verifies candidate files on every core while their matches are handed over in the candidates'
 * order, as a sequential loop would hand them: the paths are cut into runs of consecutive files,
 * a bounded window of runs ahead of the one being handed over is verified by daemon workers
 * ({@code prism-index-verify}, one a core; idle ones stop after 30 s), and the calling thread
 * verifies the next run itself when no worker has started it yet (and, while a worker verifies
 * that one, the later runs no worker has started). So at most {@code 2 x cores} runs' matches are
 * held at once, whatever the number of files; a handover that stops (a limit reached) cancels the
 * runs not yet started.
 */
final class OrderedVerify {

  /** Verifies one file: its matches, in line order (its own matcher: one per run). */
  @FunctionalInterface
  interface FileCheck<M> {
    List<M> check(String path, Map<String, Integer> notSearched);

    /** Called once its run is verified (or stopped): what it holds may go to another run. */
    default void done() {}
  }

  /** A fresh {@link FileCheck} for one run of files (so a run's state is its own thread's). */
  @FunctionalInterface
  interface Checks<M> {
    FileCheck<M> create();
  }

  /** Takes one file's matches, in path order; {@code false} to stop. */
  @FunctionalInterface
  interface FileMatches<M> {
    boolean accept(String path, List<M> matches);
  }

  /** The workers: one a core, at most 8. */
  static final int THREADS = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
  /** The most files of one run. */
  static final int MAX_RUN = 8;

  private static final class Pool {
    static final ThreadPoolExecutor EXECUTOR = pool();

    private static ThreadPoolExecutor pool() {
      ThreadPoolExecutor p = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "prism-index-verify");
            t.setDaemon(true);
            return t;
          });
      p.allowCoreThreadTimeOut(true);
      return p;
    }
  }

  private OrderedVerify() {}

  /**
   * Verifies {@code paths} with checks from {@code checks}, handing each file's matches (none for
   * a file without one) to {@code each} in the order of {@code paths} until it returns {@code
   * false} or {@code signal} is aborted; the files not searched are counted into {@code
   * notSearched}.
   *
   * @return whether every file was handed over (false: stopped or aborted)
   * @throws InterruptedIOException when the calling thread is interrupted
   */
  static <M> boolean run(List<String> paths, Checks<M> checks, Map<String, Integer> notSearched,
      AbortSignal signal, FileMatches<M> each) throws InterruptedIOException {
    return run(paths, checks, notSearched, signal, each, THREADS);
  }

  /**
   * {@link #run} as if there were {@code threads} cores (1: on the calling thread alone), runs
   * sized for them ({@code 2 x threads} runs in flight, each of up to {@link #MAX_RUN} files).
   */
  static <M> boolean run(List<String> paths, Checks<M> checks, Map<String, Integer> notSearched,
      AbortSignal signal, FileMatches<M> each, int threads) throws InterruptedIOException {
    int n = paths.size();
    int run = Math.max(1, Math.min(MAX_RUN, n / (4 * threads)));
    if (threads == 1 || n <= run) {
      return sequential(paths, checks.create(), notSearched, signal, each);
    }
    int inFlight = 2 * threads;
    ArrayDeque<FutureTask<Run<M>>> window = new ArrayDeque<>();
    int next = 0; // the first file of the next run to submit
    try {
      while (true) {
        while (window.size() < inFlight && next < n) {
          int from = next;
          int to = Math.min(n, from + run);
          FutureTask<Run<M>> task = new FutureTask<>(() -> verify(paths.subList(from, to),
              checks.create(), signal));
          Pool.EXECUTOR.execute(task);
          window.add(task);
          next = to;
        }
        FutureTask<Run<M>> head = window.poll();
        if (head == null) {
          return true;
        }
        head.run(); // verified here when no worker has started it (else a no-op)
        // While a worker verifies it, later runs no worker has started are verified here.
        for (FutureTask<Run<M>> later : window) {
          if (head.isDone()) {
            break;
          }
          later.run();
        }
        Run<M> done = head.get();
        for (int i = 0; i < done.matches.size(); i++) {
          Map<String, Integer> skipped = done.notSearched.get(i);
          if (skipped != null) {
            skipped.forEach((k, v) -> notSearched.merge(k, v, Integer::sum));
          }
          if (signal.isAborted() || !each.accept(done.paths.get(i), done.matches.get(i))) {
            return false;
          }
        }
        if (done.matches.size() < done.paths.size()) {
          return false; // aborted while verifying
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("search interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    } finally {
      for (FutureTask<Run<M>> t : window) {
        t.cancel(false);
      }
    }
  }

  private static <M> boolean sequential(List<String> paths, FileCheck<M> check,
      Map<String, Integer> notSearched, AbortSignal signal, FileMatches<M> each) {
    try {
      for (String path : paths) {
        if (signal.isAborted() || !each.accept(path, check.check(path, notSearched))) {
          return false;
        }
      }
      return true;
    } finally {
      check.done();
    }
  }

  /**
   * The matches of a run's files, in order (fewer lists than paths when aborted), and per file
   * what was not searched (null: nothing), counted only for the files handed over.
   */
  private record Run<M>(List<String> paths, List<List<M>> matches,
      List<Map<String, Integer>> notSearched) {}

  private static <M> Run<M> verify(List<String> paths, FileCheck<M> check, AbortSignal signal) {
    List<List<M>> matches = new ArrayList<>(paths.size());
    List<Map<String, Integer>> skipped = new ArrayList<>(paths.size());
    Map<String, Integer> notSearched = new TreeMap<>();
    try {
      for (String path : paths) {
        if (signal.isAborted()) {
          break;
        }
        matches.add(check.check(path, notSearched));
        skipped.add(notSearched.isEmpty() ? null : notSearched);
        if (!notSearched.isEmpty()) {
          notSearched = new TreeMap<>();
        }
      }
    } finally {
      check.done();
    }
    return new Run<>(paths, matches, skipped);
  }
}
