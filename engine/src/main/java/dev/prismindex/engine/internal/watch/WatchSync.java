package dev.prismindex.engine.internal.watch;

import dev.prismindex.engine.IndexWatch;
import dev.prismindex.engine.IndexWatch.State;
import dev.prismindex.engine.internal.watch.WatchState.Mode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The callers' side of a watch: {@link IndexWatch#sync} (prove the delivery of earlier events
 * with the {@link Fence}, then wait until the changes numbered before the call are indexed) and
 * {@link IndexWatch#status}, both read from the {@link WatchState}.
 */
record WatchSync(Path root, WatchState state, Fence fence, AtomicLong eventsSeen) {

  private static final Logger LOG = LoggerFactory.getLogger(WatchSync.class);

  /** See {@link IndexWatch#sync}. */
  IndexWatch.Sync sync(Duration maxWait) throws InterruptedException {
    long deadline = System.nanoTime() + Math.max(0, maxWait.toNanos());
    long refreshedBefore;
    state.lock.lock();
    try {
      refreshedBefore = state.filesRefreshed;
      // Starting or registering again: wait for the registration (and a first whole refresh).
      state.awaitWhile(deadline, () -> state.mode == Mode.STARTING
          || state.mode == Mode.WATCHING && (!state.vouching || state.registering()));
      if (state.state() == State.UNWATCHED) {
        return new IndexWatch.Sync(State.UNWATCHED, state.changes.files(),
            (int) (state.filesRefreshed - refreshedBefore));
      }
    } finally {
      state.lock.unlock();
    }
    boolean delivered = passFence(deadline);
    state.lock.lock();
    try {
      long last = state.changes.last();
      state.awaitWhile(deadline, () -> state.mode == Mode.WATCHING && state.vouching
          && !state.changes.indexedUpTo(last));
      State now = state.state();
      if (now != State.UNWATCHED) {
        now = delivered && state.changes.indexedUpTo(last) ? State.CURRENT : State.PENDING;
      }
      return new IndexWatch.Sync(now, state.changes.files(),
          (int) (state.filesRefreshed - refreshedBefore));
    } finally {
      state.lock.unlock();
    }
  }

  /**
   * Proves that the events of changes made before now were delivered; a fence whose directory was
   * lost is registered again (until then delivery is not proven: the known window).
   */
  private boolean passFence(long deadline) throws InterruptedException {
    state.lock.lock();
    try {
      if (!state.fenced) {
        return true;
      }
    } finally {
      state.lock.unlock();
    }
    Fence.Passage passage = fence.pass(deadline);
    if (passage == Fence.Passage.PASSED) {
      return true;
    }
    if (fence.lost()) {
      LOG.info("the watch fence of {} was removed; registering the tree again", root);
      state.lock.lock();
      try {
        state.fenced = false;
        state.rewatch(false, 0);
        state.work.signal();
      } finally {
        state.lock.unlock();
      }
      return true;
    }
    return false;
  }

  /** See {@link IndexWatch#status}. */
  IndexWatch.Status status() {
    state.lock.lock();
    try {
      TreeWatch t = state.tree;
      return new IndexWatch.Status(state.state(), t == null ? 0 : t.watchedDirectories(),
          state.changes.files(), eventsSeen.get(), state.refreshesRun,
          Duration.ofMillis(state.lastRefreshMs), state.lastError);
    } finally {
      state.lock.unlock();
    }
  }
}
