package dev.prismindex.engine.internal.watch;

import dev.prismindex.engine.IndexWatch.State;
import dev.prismindex.engine.internal.walk.RepoWalker;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What a watch's worker ({@link WatchLoop}), its event threads ({@link WatchEvents}) and its
 * callers ({@link WatchSync}) share: one lock, its two conditions, and the fields it guards, with
 * the decisions made on them (the worker's next work, the state {@code sync} reports). Every field
 * and every method but {@link #error} is used with {@link #lock} held.
 */
final class WatchState {

  /** After this long without an event, the walk session drops its copy of git's index. */
  static final long TRIM_AFTER_MS = 30_000;

  /** What the watch is doing with the tree. */
  enum Mode {
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
  enum Work { REWATCH, UNWATCH, LEXICAL, EMBED, TRIM }

  final ReentrantLock lock = new ReentrantLock();
  /** Signalled when the worker may have something to do. */
  final Condition work = lock.newCondition();
  /** Signalled when the state changed (a refresh ended, the mode changed, the watch closed). */
  final Condition progress = lock.newCondition();

  Mode mode = Mode.STARTING;
  boolean closed;
  /** The tree is registered and a whole refresh has run since: the watch can vouch. */
  boolean vouching;
  @Nullable TreeWatch tree;
  /** The walks of the tree watch and of the triage (one open repository, one git index read). */
  RepoWalker.@Nullable Session session;
  /** Whether the session may hold a copy of git's index (trimmed when idle). */
  boolean sessionWarm;
  /** Whether the fence directory is registered with the tree: {@code sync} can prove delivery. */
  boolean fenced;
  final PendingChanges changes = new PendingChanges();
  boolean rewatchPending;
  boolean rewatching;
  boolean rewatchWhole;
  long rewatchAtNanos;
  boolean unwatchPending;
  int syncsWaiting;
  final Backoff backoff = new Backoff();
  long refreshesRun;
  long filesRefreshed;
  long lastRefreshMs;
  @Nullable String lastError;

  /** Waits for the worker's next work; null once closed. Takes the lock. */
  @Nullable Work next(EmbeddingFollowUp embedding) {
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
   * Asks the worker to register the tree again after {@code delayNanos} ({@code whole}: and to
   * refresh everything then).
   */
  void rewatch(boolean whole, long delayNanos) {
    rewatchPending = true;
    if (whole) {
      rewatchWhole = true;
    }
    rewatchAtNanos = System.nanoTime() + delayNanos;
  }

  /** Whether the tree is being registered again now (or is about to be). */
  boolean registering() {
    return rewatching || rewatchPending && System.nanoTime() - rewatchAtNanos >= 0;
  }

  /** The state {@code sync} and {@code status} report. */
  State state() {
    if (closed || mode != Mode.WATCHING || !vouching || backoff.failing()) {
      return State.UNWATCHED;
    }
    return changes.settled() ? State.CURRENT : State.PENDING;
  }

  /**
   * Waits, with the worker told to skip its debounce, while {@code condition} holds, the watch is
   * open, no refresh is failing and the deadline is ahead.
   */
  void awaitWhile(long deadlineNanos, BooleanSupplier condition) throws InterruptedException {
    syncsWaiting++;
    work.signal();
    try {
      while (!closed && !backoff.failing() && condition.getAsBoolean()) {
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

  /** Records {@code message} as the last error. Takes the lock. */
  void error(String message) {
    lock.lock();
    try {
      lastError = message;
    } finally {
      lock.unlock();
    }
  }
}
