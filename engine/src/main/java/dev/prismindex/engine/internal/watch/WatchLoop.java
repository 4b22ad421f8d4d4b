package dev.prismindex.engine.internal.watch;

import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.IndexWatch;
import dev.prismindex.engine.IndexWatch.State;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker of an {@link IndexWatch}: one thread that registers the tree, turns events into
 * scoped lexical refreshes ({@link PendingChanges}: debounced, at once while a {@code sync} waits)
 * and runs the {@link EmbeddingFollowUp} when nothing else is due. The watcher's threads only
 * record events; every refresh runs here, one at a time. {@code sync} proves the delivery of
 * earlier events ({@link Fence}), then waits until the changes numbered before it are indexed.
 */
public final class WatchLoop implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WatchLoop.class);

  /** How long a watch that could not register every directory waits before trying again. */
  static final long REWATCH_AFTER_FAILURE_MS = 5 * 60_000;
  /** After this long without an event, the walk session drops its copy of git's index. */
  static final long TRIM_AFTER_MS = 30_000;

  /** What the watch is doing with the tree. */
  private enum Mode {
    /** Registering the directories (the first time, or after the root came back). */
    STARTING,
    /** Every directory the walk enters is watched. */
    WATCHING,
    /** The root does not exist; waiting for it to come back. */
    ROOT_GONE,
    /** The watch could not register every directory; trying again later. */
    FAILED
  }

  /** The next thing the worker does. */
  private enum Work { REWATCH, UNWATCH, LEXICAL, EMBED, TRIM }

  private final Path root;
  private final IndexWatch.Refresher refresher;
  private final RepoWalker walker;
  private final PathTriage triage;
  private final Fence fence;
  private final EmbeddingFollowUp embedding;
  private final Thread worker;
  private final AtomicLong eventsSeen = new AtomicLong();

  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled when the worker may have something to do. */
  private final Condition work = lock.newCondition();
  /** Signalled when the state changed (a refresh ended, the mode changed, the watch closed). */
  private final Condition progress = lock.newCondition();

  // Guarded by lock.
  private Mode mode = Mode.STARTING;
  private boolean closed;
  /** The tree is registered and a whole refresh has run since: the watch can vouch. */
  private boolean vouching;
  private @Nullable TreeWatch tree;
  /** The walks of the tree watch and of the triage (one open repository, one git index read). */
  private RepoWalker.@Nullable Session session;
  /** Whether the session may hold a copy of git's index (trimmed when idle). */
  private boolean sessionWarm;
  /** Whether the fence directory is registered with the tree: {@code sync} can prove delivery. */
  private boolean fenced;
  private final PendingChanges changes = new PendingChanges();
  private boolean rewatchPending;
  private boolean rewatching;
  private boolean rewatchWhole;
  private long rewatchAtNanos;
  private boolean unwatchPending;
  private int syncsWaiting;
  private final Backoff backoff = new Backoff();
  private long refreshesRun;
  private long filesRefreshed;
  private long lastRefreshMs;
  private @Nullable String lastError;

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
    this.worker = new Thread(this::run, "prism-index-watch");
    this.worker.setDaemon(true);
  }

  /** Starts the worker, which registers the tree and runs the first whole refresh. */
  public static WatchLoop start(HybridIndexOptions options, IndexWatch.Refresher refresher) {
    WatchLoop loop = new WatchLoop(options, refresher);
    loop.worker.start();
    return loop;
  }

  // ---------------------------------------------------------------------------------------------
  // The worker

  private void run() {
    try {
      try {
        anchor = RootAnchor.start(root, this::rootChanged);
      } catch (IOException | RuntimeException e) {
        LOG.warn("cannot watch the parent of {}: its deletion goes unnoticed: {}", root,
            e.toString());
      }
      lock.lock();
      try {
        rewatch(true, 0);
      } finally {
        lock.unlock();
      }
      Work next;
      while ((next = next()) != null) {
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
      lock.lock();
      try {
        lastError = e.toString();
      } finally {
        lock.unlock();
      }
    } finally {
      shutDown();
    }
  }

  private void shutDown() {
    RootAnchor a = anchor;
    if (a != null) {
      a.close();
    }
    TreeWatch t;
    RepoWalker.Session s;
    lock.lock();
    try {
      t = tree;
      s = session;
      tree = null;
      session = null;
      closed = true;
      progress.signalAll();
    } finally {
      lock.unlock();
    }
    if (t != null) {
      t.close();
    }
    close(s);
  }

  /** Closes a walk session once no walk runs in it. */
  private static void close(RepoWalker.@Nullable Session s) {
    if (s != null) {
      synchronized (s) {
        s.close();
      }
    }
  }

  /** Waits for the next work; null once closed. */
  private @Nullable Work next() {
    lock.lock();
    try {
      while (!closed) {
        long now = System.nanoTime();
        if (unwatchPending) {
          return Work.UNWATCH;
        }
        long wake = Long.MAX_VALUE;
        if (rewatchPending) {
          if (now - rewatchAtNanos >= 0) {
            return Work.REWATCH;
          }
          wake = rewatchAtNanos - now;
        }
        if (mode == Mode.WATCHING) {
          long lexical = lexicalDueIn(now);
          if (lexical <= 0) {
            return Work.LEXICAL;
          }
          long embed = !changes.waiting() && vouching && !backoff.failing()
              ? embedding.dueIn(now, changes.lastChangeNanos()) : Long.MAX_VALUE;
          if (embed <= 0) {
            embedding.arm(); // under the lock: an event from now on makes it yield
            return Work.EMBED;
          }
          wake = Math.min(wake, Math.min(lexical, embed));
          if (sessionWarm && !changes.waiting()) {
            long trim = changes.lastChangeNanos() + TimeUnit.MILLISECONDS.toNanos(TRIM_AFTER_MS)
                - now;
            if (trim <= 0) {
              sessionWarm = false;
              return Work.TRIM;
            }
            wake = Math.min(wake, trim);
          }
        }
        try {
          if (wake == Long.MAX_VALUE) {
            work.await();
          } else {
            work.awaitNanos(wake);
          }
        } catch (InterruptedException e) {
          closed = true;
        }
      }
      return null;
    } finally {
      lock.unlock();
    }
  }

  /** Nanoseconds until a lexical refresh is due (0 or less: now; MAX_VALUE: nothing pending). */
  private long lexicalDueIn(long now) {
    if (!changes.waiting()) {
      return Long.MAX_VALUE;
    }
    long retry = backoff.dueIn(now);
    if (syncsWaiting > 0 || !vouching) {
      return retry;
    }
    return Math.max(retry, changes.quietIn(now));
  }

  /**
   * Registers the tree (again): the new registration first, then the old one closed, so no event
   * falls between them; then a whole refresh when asked (the first time, after the root came back
   * or a failure). A re-registration for a changed {@code .gitignore} or {@code .prismignore} keeps
   * vouching: the
   * directory of that file is pending.
   */
  private void rewatch() {
    boolean whole;
    lock.lock();
    try {
      whole = rewatchWhole;
      rewatchPending = false;
      rewatching = true;
      rewatchWhole = false;
      if (whole) {
        mode = Mode.STARTING;
        vouching = false;
      }
    } finally {
      lock.unlock();
    }
    try {
      register(whole);
    } finally {
      lock.lock();
      try {
        rewatching = false;
        progress.signalAll();
      } finally {
        lock.unlock();
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
      next = TreeWatch.start(root, withFence ? fence : null, nextSession, triage, new Events(),
          eventsSeen);
    } catch (IOException | RuntimeException e) {
      close(nextSession);
      detachTree(); // its watches go too (the failure may be the watch limit)
      stopVouching(e);
      return;
    }
    TreeWatch old;
    RepoWalker.Session oldSession;
    lock.lock();
    try {
      old = tree;
      oldSession = session;
      tree = next;
      session = nextSession;
      sessionWarm = true;
      fenced = withFence;
      if (!closed) {
        mode = Mode.WATCHING;
        if (whole || !vouching) {
          changes.requireWhole();
        }
        progress.signalAll();
      }
    } finally {
      lock.unlock();
    }
    if (old != null) {
      old.close();
    }
    if (withFence) {
      fence.registered();
    }
    close(oldSession);
    LOG.info("watching {}: {} directories registered in {} ms", root, next.watchedDirectories(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /** Closes the registration in use, if any. */
  private void detachTree() {
    TreeWatch t;
    lock.lock();
    try {
      t = tree;
      tree = null;
    } finally {
      lock.unlock();
    }
    if (t != null) {
      t.close();
    }
  }

  /** The root vanished or the watch has a hole: stop watching (wait for the root, or retry). */
  private void unwatch() {
    String error;
    lock.lock();
    try {
      unwatchPending = false;
      error = lastError;
    } finally {
      lock.unlock();
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
    lock.lock();
    try {
      mode = gone ? Mode.ROOT_GONE : Mode.FAILED;
      vouching = false;
      changes.dropAll();
      if (!gone) {
        lastError = failure == null ? "cannot watch " + root : failure.toString();
        rewatch(true, TimeUnit.MILLISECONDS.toNanos(REWATCH_AFTER_FAILURE_MS));
      }
      progress.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** One lexical refresh of everything pending: scoped by the batch's paths, or whole. */
  private void lexical() {
    PendingChanges.Batch batch;
    RepoWalker.Session s;
    lock.lock();
    try {
      batch = changes.take();
      s = session;
    } finally {
      lock.unlock();
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
    lock.lock();
    try {
      changes.indexed(batch);
      if (backoff.failing()) {
        LOG.info("the watch of {} refreshes the index again", root);
      }
      backoff.succeeded();
      if (whole || stats != null) {
        refreshesRun++;
        lastRefreshMs = TimeUnit.NANOSECONDS.toMillis(nanos);
      }
      if (whole) {
        vouching = true;
      }
      if (stats != null) {
        filesRefreshed += stats.added() + stats.changed() + stats.deleted();
      }
      embedding.afterLexical(whole, scope, stats);
      progress.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** A failed refresh: the watch cannot vouch until one succeeds; retried whole, with backoff. */
  private void lexicalFailed(PendingChanges.Batch batch, Exception e) {
    lock.lock();
    try {
      changes.failed(batch);
      long delay = backoff.failed();
      lastError = e.toString();
      if (backoff.failures() == 1) {
        LOG.warn("the watch of {} could not refresh the index (trying again in {} ms): {}", root,
            delay, e.toString());
      } else {
        LOG.debug("the watch of {} could not refresh the index (trying again in {} ms)", root,
            delay, e);
      }
      progress.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Lets the idle session drop its copy of git's index (tens of MB on a large repository). */
  private void trim() {
    RepoWalker.Session s;
    lock.lock();
    try {
      s = session;
    } finally {
      lock.unlock();
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
      lock.lock();
      try {
        lastError = failure;
      } finally {
        lock.unlock();
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Events (watcher threads)

  private final class Events implements TreeWatch.Events {
    @Override
    public void changed(String path, boolean directory, boolean deleted) {
      if (path.equals(".git")) {
        gitDirectoryChanged();
        return;
      }
      if (!triage.worthALook(path, directory, deleted)) {
        return;
      }
      int slash = path.lastIndexOf('/');
      boolean rules = RepoWalker.rulesFile(path);
      lock.lock();
      try {
        if (mode != Mode.WATCHING && mode != Mode.STARTING) {
          return;
        }
        sessionWarm = true; // a new directory is walked in it, the triage reads it
        if (rules) {
          // Register again (a directory may no longer be ignored), then refresh the directory
          // whose rules changed: anything below it may have changed.
          rewatch(false, 0);
          if (slash < 0) {
            changes.addWhole();
          } else {
            changes.add(path.substring(0, slash));
          }
        } else {
          changes.add(path);
        }
        accepted();
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void overflow() {
      LOG.debug("the watch of {} lost events; refreshing the whole tree", root);
      lock.lock();
      try {
        changes.addWhole();
        accepted();
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void failed(Exception e) {
      watcherFailed(e);
    }

    @Override
    public void ended() {
      rootChanged();
    }
  }

  /** After a change was recorded: a running embedding refresh yields, the worker wakes. */
  private void accepted() {
    embedding.yieldNow();
    work.signal();
  }

  /**
   * The watcher could not handle an event. A directory that vanished or cannot be read is no
   * hole; another I/O failure (the inotify watch limit) is: the watch stops vouching, releases
   * its watches and tries again later. Anything else costs one whole refresh.
   */
  private void watcherFailed(Exception e) {
    if (e instanceof NoSuchFileException || e instanceof AccessDeniedException
        || e instanceof FileSystemException f && f.getFile() != null
            && !Files.isDirectory(Path.of(f.getFile()))) {
      LOG.debug("the watch of {} skipped a directory: {}", root, e.toString());
      return;
    }
    lock.lock();
    try {
      lastError = e.toString();
      if (e instanceof IOException) {
        LOG.warn("the watch of {} cannot register a directory: {}", root, e.toString());
        unwatchPending = true;
        work.signal();
      } else {
        LOG.debug("the watch of {} failed on an event; refreshing the whole tree", root, e);
        changes.addWhole();
        accepted();
      }
    } finally {
      lock.unlock();
    }
  }

  /** The entry above the root changed (or the watcher ended): the root may be gone or back. */
  private void rootChanged() {
    boolean exists = Files.isDirectory(root);
    lock.lock();
    try {
      if (closed) {
        return;
      }
      if (!exists && mode != Mode.ROOT_GONE) {
        unwatchPending = true;
      } else if (exists && (mode == Mode.ROOT_GONE || mode == Mode.WATCHING)) {
        // Back, or perhaps replaced by another directory: register again, refresh everything.
        LOG.info("the root {} exists (again); registering it", root);
        rewatch(true, 0);
      }
      work.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The root's {@code .git} changed: when it appeared or vanished (git init, or the repository
   * removed), the walk's rules changed everywhere; register again and refresh everything.
   */
  private void gitDirectoryChanged() {
    boolean exists = Files.exists(root.resolve(".git"));
    lock.lock();
    try {
      RepoWalker.Session s = session;
      if (closed || mode != Mode.WATCHING || s == null || s.git() == exists) {
        return;
      }
      LOG.info("{}/.git {}; registering the tree again", root, exists ? "appeared" : "vanished");
      rewatch(true, 0);
      work.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Asks the worker to register the tree again after {@code delayNanos} ({@code whole}: and to
   * refresh everything then). The caller holds {@link #lock}.
   */
  private void rewatch(boolean whole, long delayNanos) {
    rewatchPending = true;
    if (whole) {
      rewatchWhole = true;
    }
    rewatchAtNanos = System.nanoTime() + delayNanos;
  }

  /** Loses events on purpose, as the system does on overflow (tests). */
  public void simulateOverflow() {
    new Events().overflow();
  }

  // ---------------------------------------------------------------------------------------------
  // The callers' side

  /** See {@link IndexWatch#sync}. */
  public IndexWatch.Sync sync(Duration maxWait) throws InterruptedException {
    long deadline = System.nanoTime() + Math.max(0, maxWait.toNanos());
    long refreshedBefore;
    lock.lock();
    try {
      refreshedBefore = filesRefreshed;
      // Starting or registering again: wait for the registration (and a first whole refresh).
      awaitWhile(deadline, () -> mode == Mode.STARTING
          || mode == Mode.WATCHING && (!vouching || registering()));
      if (state() == State.UNWATCHED) {
        return new IndexWatch.Sync(State.UNWATCHED, pendingFiles(),
            (int) (filesRefreshed - refreshedBefore));
      }
    } finally {
      lock.unlock();
    }
    boolean delivered = passFence(deadline);
    lock.lock();
    try {
      long last = changes.last();
      awaitWhile(deadline, () -> mode == Mode.WATCHING && vouching && !changes.indexedUpTo(last));
      State state = state();
      if (state != State.UNWATCHED) {
        state = delivered && changes.indexedUpTo(last) ? State.CURRENT : State.PENDING;
      }
      return new IndexWatch.Sync(state, pendingFiles(), (int) (filesRefreshed - refreshedBefore));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Proves that the events of changes made before now were delivered; a fence whose directory was
   * lost is registered again (until then delivery is not proven: the known window).
   */
  private boolean passFence(long deadline) throws InterruptedException {
    lock.lock();
    try {
      if (!fenced) {
        return true;
      }
    } finally {
      lock.unlock();
    }
    Fence.Passage passage = fence.pass(deadline);
    if (passage == Fence.Passage.PASSED) {
      return true;
    }
    if (fence.lost()) {
      LOG.info("the watch fence of {} was removed; registering the tree again", root);
      lock.lock();
      try {
        fenced = false;
        rewatch(false, 0);
        work.signal();
      } finally {
        lock.unlock();
      }
      return true;
    }
    return false;
  }

  /** A condition on the guarded state. */
  @FunctionalInterface
  private interface Guarded {
    boolean holds();
  }

  /**
   * Waits, with the lock held and the worker told to skip its debounce, while {@code condition}
   * holds, the watch is open, no refresh is failing and the deadline is ahead.
   */
  private void awaitWhile(long deadlineNanos, Guarded condition) throws InterruptedException {
    syncsWaiting++;
    work.signal();
    try {
      while (!closed && !backoff.failing() && condition.holds()) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          return;
        }
        progress.awaitNanos(left);
      }
    } finally {
      syncsWaiting--;
    }
  }

  /** Whether the tree is being registered again now (or is about to be); the lock is held. */
  private boolean registering() {
    return rewatching || rewatchPending && System.nanoTime() - rewatchAtNanos >= 0;
  }

  /** The lock is held. */
  private State state() {
    if (closed || mode != Mode.WATCHING || !vouching || backoff.failing()) {
      return State.UNWATCHED;
    }
    return changes.settled() ? State.CURRENT : State.PENDING;
  }

  /** The lock is held. */
  private int pendingFiles() {
    return changes.files();
  }

  /** See {@link IndexWatch#status}. */
  public IndexWatch.Status status() {
    lock.lock();
    try {
      TreeWatch t = tree;
      return new IndexWatch.Status(state(), t == null ? 0 : t.watchedDirectories(),
          pendingFiles(), eventsSeen.get(), refreshesRun, Duration.ofMillis(lastRefreshMs),
          lastError);
    } finally {
      lock.unlock();
    }
  }

  /** Stops the worker after its refresh in flight (an embedding one stops after its batch). */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      embedding.yieldNow();
      work.signalAll();
      progress.signalAll();
    } finally {
      lock.unlock();
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
