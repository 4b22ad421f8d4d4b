package dev.prismindex.engine.internal.watch;

import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.IndexWatch;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;
import dev.prismindex.engine.internal.watch.WatchState.Mode;
import dev.prismindex.engine.internal.watch.WatchState.Work;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker of an {@link IndexWatch}: one thread that registers the tree, turns the pending
 * changes the {@link WatchEvents} record into scoped lexical refreshes ({@link PendingChanges}:
 * debounced, at once while a {@code sync} waits) and runs the {@link EmbeddingFollowUp} when
 * nothing else is due. Every refresh runs here, one at a time. The state the three sides share,
 * and the choice of the next work, are in {@link WatchState}; the callers' side is {@link
 * WatchSync}.
 */
public final class WatchLoop implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WatchLoop.class);

  /** How long a watch that could not register every directory waits before trying again. */
  static final long REWATCH_AFTER_FAILURE_MS = 5 * 60_000;

  private final Path root;
  private final IndexWatch.Refresher refresher;
  private final RepoWalker walker;
  private final PathTriage triage;
  private final Fence fence;
  private final EmbeddingFollowUp embedding;
  private final Thread worker;
  private final AtomicLong eventsSeen = new AtomicLong();
  private final WatchState state = new WatchState();
  private final WatchEvents events;
  private final WatchSync sync;

  private @Nullable RootAnchor anchor;

  private WatchLoop(HybridIndexOptions options, IndexWatch.Refresher refresher) {
    this.root = options.root();
    this.refresher = refresher;
    FileRules rules = FileRules.of(options);
    this.walker = new RepoWalker(options.root(), options.home(), rules);
    this.triage = new PathTriage(options.root(), options.home(), rules);
    this.fence = new Fence(options.home());
    this.embedding = new EmbeddingFollowUp(root, refresher, options.semantic()
        && (options.embedder() != null || EmbedderProvider.findDefault().isPresent()));
    this.events = new WatchEvents(root, triage, state, embedding);
    this.sync = new WatchSync(root, state, fence, eventsSeen);
    this.worker = new Thread(this::run, "prism-index-watch");
    this.worker.setDaemon(true);
  }

  /** Starts the worker, which registers the tree and runs the first whole refresh. */
  public static WatchLoop start(HybridIndexOptions options, IndexWatch.Refresher refresher) {
    WatchLoop loop = new WatchLoop(options, refresher);
    loop.worker.start();
    return loop;
  }

  /** See {@link IndexWatch#sync}. */
  public IndexWatch.Sync sync(Duration maxWait) throws InterruptedException {
    return sync.sync(maxWait);
  }

  /** See {@link IndexWatch#status}. */
  public IndexWatch.Status status() {
    return sync.status();
  }

  /** Loses events on purpose, as the system does on overflow (tests). */
  public void simulateOverflow() {
    events.overflow();
  }

  // ---------------------------------------------------------------------------------------------
  // The worker

  private void run() {
    try {
      try {
        anchor = RootAnchor.start(root, events::rootChanged);
      } catch (IOException | RuntimeException e) {
        LOG.warn("cannot watch the parent of {}: its deletion goes unnoticed: {}", root,
            e.toString());
      }
      state.lock.lock();
      try {
        state.rewatch(true, 0);
      } finally {
        state.lock.unlock();
      }
      Work next;
      while ((next = state.next(embedding)) != null) {
        switch (next) {
          case REWATCH -> rewatch();
          case UNWATCH -> unwatch();
          case LEXICAL -> lexical();
          case EMBED -> embed();
          case TRIM -> trim();
          default -> throw new IllegalStateException(next.name());
        }
      }
    } catch (RuntimeException | Error e) {
      LOG.error("the watch of {} stopped", root, e);
      state.error(e.toString());
    } finally {
      shutDown();
    }
  }

  private void shutDown() {
    RootAnchor a = anchor;
    if (a != null) {
      a.close();
    }
    Registration old;
    state.lock.lock();
    try {
      old = replace(null, null);
      state.closed = true;
      state.progress.signalAll();
    } finally {
      state.lock.unlock();
    }
    old.close();
  }

  /** What a registration of the tree holds: its tree watch and its walk session. */
  private record Registration(@Nullable TreeWatch tree, RepoWalker.@Nullable Session session) {

    /** Closes the tree watch, then the session once no walk runs in it. */
    void close() {
      if (tree != null) {
        tree.close();
      }
      WatchLoop.close(session);
    }
  }

  /** Puts {@code tree} and {@code session} in the state (lock held); returns the ones replaced. */
  private Registration replace(@Nullable TreeWatch tree, RepoWalker.@Nullable Session session) {
    Registration old = new Registration(state.tree, state.session);
    state.tree = tree;
    state.session = session;
    return old;
  }

  /** Closes a walk session once no walk runs in it. */
  private static void close(RepoWalker.@Nullable Session s) {
    if (s != null) {
      synchronized (s) {
        s.close();
      }
    }
  }

  /**
   * Registers the tree (again): the new registration first, then the old one closed, so no event
   * falls between them; then a whole refresh when asked (the first time, after the root came back
   * or a failure). A re-registration for a changed {@code .gitignore} or {@code .prismignore}, or
   * for a lost fence, keeps vouching, but refreshes everything too: a change made just before the
   * new registration may sit undelivered in the old one when it is closed.
   */
  private void rewatch() {
    boolean whole;
    state.lock.lock();
    try {
      whole = state.rewatchWhole;
      state.rewatchPending = false;
      state.rewatching = true;
      state.rewatchWhole = false;
      if (whole) {
        state.mode = Mode.STARTING;
        state.vouching = false;
      }
    } finally {
      state.lock.unlock();
    }
    try {
      register(whole);
    } finally {
      state.lock.lock();
      try {
        state.rewatching = false;
        state.progress.signalAll();
      } finally {
        state.lock.unlock();
      }
    }
  }

  private void register(boolean whole) {
    if (!Files.isDirectory(root)) {
      detachTree();
      stopVouching(null);
      return;
    }
    long started = System.nanoTime();
    triage.forgetExcluded();
    RepoWalker.Session nextSession = walker.session();
    boolean withFence = fence.prepare();
    TreeWatch next;
    try {
      next = TreeWatch.start(root, withFence ? fence : null, nextSession, triage, events,
          eventsSeen);
    } catch (IOException | RuntimeException e) {
      close(nextSession);
      detachTree(); // its watches go too (the failure may be the watch limit)
      stopVouching(e);
      return;
    }
    Registration old;
    state.lock.lock();
    try {
      old = replace(next, nextSession);
      state.sessionWarm = true;
      state.fenced = withFence;
      if (!state.closed) {
        state.mode = Mode.WATCHING;
        if (whole || !state.vouching || old.tree() != null) {
          state.changes.requireWhole();
        }
        state.progress.signalAll();
      }
    } finally {
      state.lock.unlock();
    }
    old.close();
    if (withFence) {
      fence.registered();
    }
    LOG.info("watching {}: {} directories registered in {} ms", root, next.watchedDirectories(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /** Closes the registration in use, if any. */
  private void detachTree() {
    TreeWatch t;
    state.lock.lock();
    try {
      t = state.tree;
      state.tree = null;
    } finally {
      state.lock.unlock();
    }
    if (t != null) {
      t.close();
    }
  }

  /** The root vanished or the watch has a hole: stop watching (wait for the root, or retry). */
  private void unwatch() {
    String error;
    state.lock.lock();
    try {
      state.unwatchPending = false;
      error = state.lastError;
    } finally {
      state.lock.unlock();
    }
    detachTree();
    stopVouching(Files.isDirectory(root) ? new IOException(
        error != null ? error : "a directory could not be watched") : null);
  }

  /**
   * The watch cannot vouch any more: the root is gone (wait for it to come back), or {@code
   * failure} made it unable to watch every directory (try again in a few minutes).
   */
  private void stopVouching(@Nullable Exception failure) {
    boolean gone = !Files.isDirectory(root);
    if (gone) {
      LOG.info("the root {} does not exist; waiting for it", root);
    } else {
      LOG.warn("cannot watch {}: {}; callers check freshness themselves. On Linux, raise "
          + "fs.inotify.max_user_watches (see /proc/sys/fs/inotify/max_user_watches) if the "
          + "watch limit was reached; trying again in {} minutes", root,
          failure == null ? "unknown error" : failure.toString(),
          TimeUnit.MILLISECONDS.toMinutes(REWATCH_AFTER_FAILURE_MS));
    }
    state.lock.lock();
    try {
      state.mode = gone ? Mode.ROOT_GONE : Mode.FAILED;
      state.vouching = false;
      state.changes.dropAll();
      if (!gone) {
        state.lastError = failure == null ? "cannot watch " + root : failure.toString();
        state.rewatch(true, TimeUnit.MILLISECONDS.toNanos(REWATCH_AFTER_FAILURE_MS));
      }
      state.progress.signalAll();
    } finally {
      state.lock.unlock();
    }
  }

  /** One lexical refresh of everything pending: scoped by the batch's paths, or whole. */
  private void lexical() {
    PendingChanges.Batch batch;
    RepoWalker.Session s;
    state.lock.lock();
    try {
      batch = state.changes.take();
      s = state.session;
    } finally {
      state.lock.unlock();
    }
    boolean whole = batch.whole();
    long started = System.nanoTime();
    IndexRunStats stats = null;
    Set<String> scope = Set.of();
    try {
      if (!whole) {
        Set<String> judged = null;
        if (s != null) {
          synchronized (s) {
            judged = triage.scope(batch.paths(), s);
          }
        }
        if (judged == null) {
          whole = true;
        } else {
          scope = judged;
        }
      }
      if (whole || !scope.isEmpty()) {
        stats = refresher.refresh(
            RefreshOptions.INCREMENTAL.withEmbedding(false).withScope(scope));
        LOG.debug("watch refresh of {} ({}): {}", root,
            whole ? "whole" : scope.size() + " paths", stats);
      }
    } catch (IOException | RuntimeException e) {
      lexicalFailed(batch, e);
      return;
    }
    lexicalDone(batch, whole, scope, stats, System.nanoTime() - started);
  }

  private void lexicalDone(PendingChanges.Batch batch, boolean whole, Set<String> scope,
      @Nullable IndexRunStats stats, long nanos) {
    state.lock.lock();
    try {
      state.changes.indexed(batch);
      if (state.backoff.failing()) {
        LOG.info("the watch of {} refreshes the index again", root);
      }
      state.backoff.succeeded();
      if (whole || stats != null) {
        state.refreshesRun++;
        state.lastRefreshMs = TimeUnit.NANOSECONDS.toMillis(nanos);
      }
      if (whole) {
        state.vouching = true;
      }
      if (stats != null) {
        state.filesRefreshed += stats.added() + stats.changed() + stats.deleted();
      }
      embedding.afterLexical(whole, scope, stats);
      state.progress.signalAll();
    } finally {
      state.lock.unlock();
    }
  }

  /** A failed refresh: the watch cannot vouch until one succeeds; retried whole, with backoff. */
  private void lexicalFailed(PendingChanges.Batch batch, Exception e) {
    state.lock.lock();
    try {
      state.changes.failed(batch);
      long delay = state.backoff.failed();
      state.lastError = e.toString();
      if (state.backoff.failures() == 1) {
        LOG.warn("the watch of {} could not refresh the index (trying again in {} ms): {}", root,
            delay, e.toString());
      } else {
        LOG.debug("the watch of {} could not refresh the index (trying again in {} ms)", root,
            delay, e);
      }
      state.progress.signalAll();
    } finally {
      state.lock.unlock();
    }
  }

  /** Lets the idle session drop its copy of git's index (tens of MB on a large repository). */
  private void trim() {
    RepoWalker.Session s;
    state.lock.lock();
    try {
      s = state.session;
    } finally {
      state.lock.unlock();
    }
    if (s != null) {
      synchronized (s) {
        s.trim();
      }
    }
  }

  private void embed() {
    String failure = embedding.run();
    if (failure != null) {
      state.error(failure);
    }
  }

  /** Stops the worker after its refresh in flight (an embedding one stops after its batch). */
  @Override
  public void close() {
    state.lock.lock();
    try {
      state.closed = true;
      embedding.yieldNow();
      state.work.signalAll();
      state.progress.signalAll();
    } finally {
      state.lock.unlock();
    }
    if (Thread.currentThread() == worker) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        worker.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
