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
    } finally {
      state.lock.unlock();
    }
    boolean delivered = false;
    for (int attempt = 0; attempt < 2 && !delivered; attempt++) {
      if (!awaitRegistration(deadline)) {
        return new IndexWatch.Sync(State.UNWATCHED, files(),
            (int) (filesRefreshed() - refreshedBefore));
      }
      delivered = passFence(deadline);
    }
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
   * Waits while the tree is being registered (the first time, or again, with the whole refresh
   * that follows); false when the watch does not vouch for the tree.
   */
  private boolean awaitRegistration(long deadline) throws InterruptedException {
    state.lock.lock();
    try {
      state.awaitWhile(deadline, () -> state.mode == Mode.STARTING
          || state.mode == Mode.WATCHING && (!state.vouching || state.registering()));
      return state.state() != State.UNWATCHED;
    } finally {
      state.lock.unlock();
    }
  }

  private int files() {
    state.lock.lock();
    try {
      return state.changes.files();
    } finally {
      state.lock.unlock();
    }
  }

  private long filesRefreshed() {
    state.lock.lock();
    try {
      return state.filesRefreshed;
    } finally {
      state.lock.unlock();
    }
  }

  /**
   * Proves that the events of changes made before now were delivered. A fence whose directory was
   * lost is registered again with the tree, which refreshes everything: the caller waits for that
   * registration and passes the new fence.
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
      state.lock.lock();
      try {
        if (state.fenced && !state.registering()) {
          LOG.info("the watch fence of {} was removed; registering the tree again", root);
          state.rewatch(false, 0);
          state.work.signal();
        }
      } finally {
        state.lock.unlock();
      }
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
