package dev.prismindex.engine.internal.watch;

import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.IndexWatch;
import dev.prismindex.engine.IndexWatch.State;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SemanticSearchUnavailableException;
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
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker of an {@link IndexWatch}: one thread that registers the watch, turns events into
 * scoped lexical refreshes (debounced: {@value #QUIET_MS} ms without a new event, at most
 * {@value #MAX_DELAY_MS} ms after the first one of a burst, at once while a {@code sync} waits),
 * and runs an embedding refresh when nothing else is due ({@value #EMBED_QUIET_MS} ms without an
 * event), asking it to stop after its current batch as soon as an event arrives. The watcher's
 * threads only record events; every refresh runs here, one at a time.
 */
public final class WatchLoop implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WatchLoop.class);

  static final long QUIET_MS = 100;
  static final long MAX_DELAY_MS = 500;
  static final long EMBED_QUIET_MS = 2_000;
  static final long RETRY_MIN_MS = 1_000;
  static final long RETRY_MAX_MS = 60_000;
  /** How long a watch that could not register every directory waits before trying again. */
  static final long REWATCH_AFTER_FAILURE_MS = 5 * 60_000;

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
  private enum Work { REWATCH, UNWATCH, LEXICAL, EMBED }

  /** Thrown by the embedding refresh's progress listener to make it stop after its batch. */
  private static final class EmbeddingYield extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EmbeddingYield() {
      super("the embedding refresh yields to lexical work", null, false, false);
    }
  }

  private final Path root;
  private final IndexWatch.Refresher refresher;
  private final RepoWalker walker;
  private final PathTriage triage;
  private final @Nullable Fence fence;
  private final boolean embeddings;
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
  /** The tree was registered and a whole refresh has run since: the watch can vouch. */
  private boolean vouching;
  private @Nullable TreeWatch tree;
  private @Nullable RepoWalker.Session session;
  private SortedSet<String> pending = new TreeSet<>();
  private boolean wholePending;
  private boolean rewatchPending;
  private boolean rewatchWhole;
  private long rewatchAtNanos;
  private boolean unwatchPending;
  private long firstEventNanos;
  private long lastEventNanos = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(EMBED_QUIET_MS);
  /** Accepted events so far; every event numbered up to {@link #indexedSeq} is in the index. */
  private long eventSeq;
  private long indexedSeq;
  private boolean lexicalRunning;
  private int filesInFlight;
  private int syncsWaiting;
  private boolean refreshFailing;
  private int failures;
  private long retryAtNanos;
  private boolean embedWanted;
  /** The paths of the lexical refreshes not yet followed by embedding; null: the whole tree. */
  private @Nullable SortedSet<String> embedScope = new TreeSet<>();
  private boolean embedDisabled;
  private int embedFailures;
  private long embedRetryAtNanos;
  private volatile boolean embedYield;
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
    this.fence = Fence.inHome(options.home());
    this.embeddings = options.semantic()
        && (options.embedder() != null || EmbedderProvider.findDefault().isPresent());
    this.worker = new Thread(this::run, "prism-index-watch");
    this.worker.setDaemon(true);
  }

  /** Starts the worker, which registers the watch and runs the first whole refresh. */
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
        rewatchPending = true;
        rewatchWhole = true;
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
          default -> throw new IllegalStateException(next.name());
        }
      }
    } catch (RuntimeException | Error e) {
      LOG.error("the watch of {} stopped", root, e);
      lock.lock();
      try {
        lastError = e.toString();
        mode = Mode.FAILED;
        vouching = false;
        progress.signalAll();
      } finally {
        lock.unlock();
      }
    } finally {
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
      if (s != null) {
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
          wake = Math.min(wake, rewatchAtNanos - now);
        }
        if (mode == Mode.WATCHING) {
          long lexical = lexicalDueIn(now);
          if (lexical <= 0) {
            return Work.LEXICAL;
          }
          wake = Math.min(wake, lexical);
          long embed = embedDueIn(now);
          if (embed <= 0) {
            embedYield = false; // from here on, an event makes the embedding yield
            return Work.EMBED;
          }
          wake = Math.min(wake, embed);
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
    if (pending.isEmpty() && !wholePending) {
      return Long.MAX_VALUE;
    }
    long retry = refreshFailing ? retryAtNanos - now : 0;
    if (syncsWaiting > 0 || !vouching) {
      return retry;
    }
    long quiet = lastEventNanos + TimeUnit.MILLISECONDS.toNanos(QUIET_MS) - now;
    long burst = firstEventNanos + TimeUnit.MILLISECONDS.toNanos(MAX_DELAY_MS) - now;
    return Math.max(retry, Math.min(quiet, burst));
  }

  private long embedDueIn(long now) {
    if (!embeddings || embedDisabled || !embedWanted || !vouching || refreshFailing
        || !pending.isEmpty() || wholePending) {
      return Long.MAX_VALUE;
    }
    long quiet = lastEventNanos + TimeUnit.MILLISECONDS.toNanos(EMBED_QUIET_MS) - now;
    return Math.max(quiet, embedRetryAtNanos - now);
  }

  /**
   * Registers the tree (again): a new registration first, then the old one closed, so no event
   * falls between them; then a whole refresh when asked (the first time, after the root came back
   * or a failure).
   */
  private void rewatch() {
    boolean whole;
    lock.lock();
    try {
      whole = rewatchWhole;
      rewatchPending = false;
      rewatchWhole = false;
      if (whole) {
        mode = Mode.STARTING;
        vouching = false;
      }
    } finally {
      lock.unlock();
    }
    if (!Files.isDirectory(root)) {
      goneOrFailed(null);
      return;
    }
    long started = System.nanoTime();
    triage.forgetExcluded();
    TreeWatch next;
    RepoWalker.Session nextSession = walker.session();
    try {
      next = TreeWatch.start(root, fence, walker, triage, new Events(), eventsSeen);
    } catch (IOException | RuntimeException e) {
      nextSession.close();
      goneOrFailed(e);
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
      if (!closed) {
        mode = Mode.WATCHING;
        if (whole || !vouching) {
          wholePending = true;
        }
        progress.signalAll();
      }
    } finally {
      lock.unlock();
    }
    if (old != null) {
      old.close();
    }
    if (oldSession != null) {
      oldSession.close();
    }
    LOG.info("watching {}: {} directories registered in {} ms", root, next.watchedDirectories(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /** After a registration failed: the root is gone (wait for it) or the watch failed (retry). */
  private void goneOrFailed(@Nullable Exception e) {
    boolean gone = !Files.isDirectory(root);
    if (gone) {
      LOG.info("the root {} does not exist; waiting for it", root);
    } else {
      LOG.warn("cannot watch {}: {}; callers check freshness themselves. On Linux, raise "
          + "fs.inotify.max_user_watches (see /proc/sys/fs/inotify/max_user_watches) if the "
          + "watch limit was reached; retrying in {} minutes", root,
          e == null ? "unknown error" : e.toString(),
          TimeUnit.MILLISECONDS.toMinutes(REWATCH_AFTER_FAILURE_MS));
    }
    lock.lock();
    try {
      mode = gone ? Mode.ROOT_GONE : Mode.FAILED;
      vouching = false;
      pending = new TreeSet<>();
      wholePending = false;
      indexedSeq = eventSeq;
      if (e != null && !gone) {
        lastError = e.toString();
        rewatchPending = true;
        rewatchWhole = true;
        rewatchAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(
            REWATCH_AFTER_FAILURE_MS);
      }
      progress.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The root vanished or the watch has a hole: stop watching (waiting for the root, or a retry). */
  private void unwatch() {
    TreeWatch t;
    boolean gone = !Files.isDirectory(root);
    lock.lock();
    try {
      unwatchPending = false;
      t = tree;
      tree = null;
    } finally {
      lock.unlock();
    }
    if (t != null) {
      t.close();
    }
    if (gone) {
      goneOrFailed(null);
    } else {
      goneOrFailed(new IOException(lastErrorOr("a directory could not be watched")));
    }
  }

  private String lastErrorOr(String fallback) {
    lock.lock();
    try {
      return lastError != null ? lastError : fallback;
    } finally {
      lock.unlock();
    }
  }

  /** One lexical refresh of everything pending: scoped by the batch's paths, or whole. */
  private void lexical() {
    boolean whole;
    SortedSet<String> batch;
    long covers;
    RepoWalker.Session s;
    lock.lock();
    try {
      whole = wholePending;
      batch = pending;
      pending = new TreeSet<>();
      wholePending = false;
      covers = eventSeq;
      lexicalRunning = true;
      filesInFlight = whole ? 0 : batch.size();
      s = session;
    } finally {
      lock.unlock();
    }
    long started = System.nanoTime();
    IndexRunStats stats = null;
    Set<String> scope = Set.of();
    try {
      if (!whole) {
        Set<String> judged = s == null ? null : triage.scope(batch, s);
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
      lexicalDone(covers, whole, scope, stats, System.nanoTime() - started);
    } catch (IOException | RuntimeException e) {
      lexicalFailed(batch, e);
    }
  }

  private void lexicalDone(long covers, boolean whole, Set<String> scope,
      @Nullable IndexRunStats stats, long nanos) {
    lock.lock();
    try {
      indexedSeq = Math.max(indexedSeq, covers);
      lexicalRunning = false;
      filesInFlight = 0;
      if (refreshFailing) {
        LOG.info("the watch of {} refreshes again", root);
      }
      refreshFailing = false;
      failures = 0;
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
      if (whole || stats != null && stats.chunksWritten() > 0) {
        embedWanted = true;
        SortedSet<String> es = embedScope;
        if (whole || es == null) {
          embedScope = null;
        } else {
          es.addAll(scope);
          embedScope = PathTriage.fold(es);
          if (embedScope.size() > PathTriage.MAX_SCOPE_PATHS) {
            embedScope = null;
          }
        }
      }
      progress.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** A failed refresh: the watch cannot vouch until one succeeds; retried whole, with backoff. */
  private void lexicalFailed(SortedSet<String> batch, Exception e) {
    lock.lock();
    try {
      lexicalRunning = false;
      filesInFlight = 0;
      pending.addAll(batch);
      wholePending = true;
      refreshFailing = true;
      failures++;
      long delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS << Math.min(failures - 1, 10));
      retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
      lastError = e.toString();
      if (failures == 1) {
        LOG.warn("the watch of {} could not refresh the index (retrying in {} ms): {}", root,
            delay, e.toString());
      } else {
        LOG.debug("the watch of {} could not refresh the index (retrying in {} ms)", root, delay,
            e);
      }
      progress.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * One embedding refresh: the paths refreshed lexically since the last one (their walk finds
   * nothing new), then the missing vectors. Its progress listener throws {@link EmbeddingYield}
   * once lexical work arrives, which stops it after its batches in flight (their vectors are
   * committed); it is tried again after the next quiet period.
   */
  private void embed() {
    Set<String> scope;
    lock.lock();
    try {
      SortedSet<String> es = embedScope;
      scope = es == null ? Set.of() : Set.copyOf(es);
    } finally {
      lock.unlock();
    }
    try {
      IndexRunStats stats = refresher.refresh(RefreshOptions.INCREMENTAL.withScope(scope)
          .withProgress(this::embeddingProgress));
      LOG.debug("watch embedding of {}: {} chunk texts embedded", root, stats.chunksEmbedded());
      lock.lock();
      try {
        embedWanted = false;
        embedScope = new TreeSet<>();
        embedFailures = 0;
      } finally {
        lock.unlock();
      }
    } catch (EmbeddingYield e) {
      LOG.debug("the embedding of {} yields to lexical work", root);
    } catch (SemanticSearchUnavailableException e) {
      LOG.warn("the watch of {} stops embedding: {}", root, e.getMessage());
      lock.lock();
      try {
        embedDisabled = true;
        lastError = e.toString();
      } finally {
        lock.unlock();
      }
    } catch (IOException | RuntimeException e) {
      lock.lock();
      try {
        embedFailures++;
        long delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS << Math.min(embedFailures - 1, 10));
        embedRetryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
        lastError = e.toString();
        LOG.debug("the embedding refresh of {} failed (retrying in {} ms)", root, delay, e);
      } finally {
        lock.unlock();
      }
    }
  }

  private void embeddingProgress(IndexProgress p) {
    if (p.phase() == IndexProgress.Phase.EMBEDDING && embedYield) {
      throw new EmbeddingYield();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Events (watcher threads)

  private final class Events implements TreeWatch.Events {
    @Override
    public void changed(String path, boolean directory) {
      if (path.equals(".git")) {
        gitDirectoryChanged();
        return;
      }
      if (!triage.worthALook(path, directory)) {
        return;
      }
      String name = path.substring(path.lastIndexOf('/') + 1);
      lock.lock();
      try {
        if (mode != Mode.WATCHING && mode != Mode.STARTING) {
          return;
        }
        boolean first = pending.isEmpty() && !wholePending;
        if (name.equals(".gitignore")) {
          // The rules changed: register again (a directory may no longer be ignored), and
          // refresh the directory whose rules changed, below which anything may change.
          int slash = path.lastIndexOf('/');
          rewatchPending = true;
          rewatchAtNanos = System.nanoTime();
          if (slash < 0) {
            wholePending = true;
          } else {
            pending.add(path.substring(0, slash));
          }
        } else {
          pending.add(path);
        }
        accepted(first);
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void overflow() {
      LOG.debug("the watch of {} lost events; refreshing the whole tree", root);
      lock.lock();
      try {
        boolean first = pending.isEmpty() && !wholePending;
        wholePending = true;
        accepted(first);
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void failed(Exception e) {
      WatchLoop.this.failed(e);
    }

    @Override
    public void ended() {
      rootChanged();
    }
  }

  /**
   * Numbers an accepted event and wakes the worker; the lock is held. {@code firstOfBurst}: nothing
   * was pending before it (the burst's deadline starts now).
   */
  private void accepted(boolean firstOfBurst) {
    long now = System.nanoTime();
    if (firstOfBurst) {
      firstEventNanos = now;
    }
    lastEventNanos = now;
    eventSeq++;
    embedYield = true;
    work.signal();
  }

  /**
   * The watcher could not handle an event. A directory that vanished or cannot be read is no
   * hole; another I/O failure (the inotify watch limit) is: the watch stops vouching, releases
   * its watches and tries again later. Anything else costs one whole refresh.
   */
  private void failed(Exception e) {
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
      } else {
        LOG.debug("the watch of {} failed on an event; refreshing the whole tree", root, e);
        boolean first = pending.isEmpty() && !wholePending;
        wholePending = true;
        accepted(first);
      }
      work.signal();
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
        rewatchPending = true;
        rewatchWhole = true;
        rewatchAtNanos = System.nanoTime();
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
      rewatchPending = true;
      rewatchWhole = true;
      rewatchAtNanos = System.nanoTime();
      work.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Loses events on purpose (tests of the overflow path). */
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
      syncsWaiting++;
      work.signal();
      try {
        while (!closed && (mode == Mode.STARTING || mode == Mode.WATCHING && !vouching)
            && !refreshFailing) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            break;
          }
          progress.awaitNanos(left);
        }
      } finally {
        syncsWaiting--;
      }
      if (closed || mode != Mode.WATCHING || !vouching || refreshFailing) {
        return new IndexWatch.Sync(State.UNWATCHED, pendingFiles(),
            (int) (filesRefreshed - refreshedBefore));
      }
    } finally {
      lock.unlock();
    }
    Fence f = fence;
    boolean delivered = f == null || f.pass(deadline);
    lock.lock();
    try {
      long target = eventSeq;
      syncsWaiting++;
      work.signal();
      try {
        while (!closed && mode == Mode.WATCHING && vouching && !refreshFailing
            && !(indexedSeq >= target && !wholePending)) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            break;
          }
          progress.awaitNanos(left);
        }
      } finally {
        syncsWaiting--;
      }
      State state;
      if (closed || mode != Mode.WATCHING || !vouching || refreshFailing) {
        state = State.UNWATCHED;
      } else if (delivered && indexedSeq >= target && !wholePending) {
        state = State.CURRENT;
      } else {
        state = State.PENDING;
      }
      return new IndexWatch.Sync(state, pendingFiles(), (int) (filesRefreshed - refreshedBefore));
    } finally {
      lock.unlock();
    }
  }

  /** The lock is held. */
  private State state() {
    if (closed || mode != Mode.WATCHING || !vouching || refreshFailing) {
      return State.UNWATCHED;
    }
    return pending.isEmpty() && !wholePending && !lexicalRunning ? State.CURRENT : State.PENDING;
  }

  /** The lock is held. */
  private int pendingFiles() {
    return pending.size() + filesInFlight;
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
      embedYield = true;
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
