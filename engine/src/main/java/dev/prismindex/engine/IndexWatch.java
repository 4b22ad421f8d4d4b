package dev.prismindex.engine;

import dev.prismindex.engine.internal.watch.WatchLoop;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Keeps an index current while a process runs: a file watcher ({@code
 * io.methvin:directory-watcher}: inotify on Linux, FSEvents on macOS) sees the repository's
 * changes, and one background thread re-indexes them lexically within about a second, so a caller
 * can skip the whole-tree freshness walk and pay only for what changed ({@link #sync}).
 *
 * <p><b>What is watched.</b> Every directory the index's walk enters ({@link
 * HybridIndexOptions}: git's ignore rules, pruned names such as {@code node_modules}, the index
 * home, {@code .git}, the depth and path limits); ignored and pruned trees cost no watch, and
 * events for files the walk leaves out cause no work. On Linux each directory is one inotify
 * watch ({@code /proc/sys/fs/inotify/max_user_watches}); when registration fails the watch is
 * {@link State#UNWATCHED} (logged; retried after five minutes) and callers check freshness
 * themselves.
 *
 * <p><b>How changes are indexed.</b> Events are debounced (100 ms without a new one, at most 500
 * ms after the first of a burst, at once while a {@link #sync} waits) and coalesced into one
 * scoped lexical refresh ({@code INCREMENTAL.withScope(paths).withEmbedding(false)}); a changed
 * {@code .gitignore} re-registers the tree and refreshes its directory; lost events (overflow) or
 * a watcher error cost one unscoped incremental refresh. When nothing has changed for two seconds,
 * an embedding refresh (embedding on, scoped to what was refreshed lexically) embeds the new
 * chunks; an event makes it stop after its batches in flight (their vectors are committed) and it
 * runs again after the next quiet period. A deleted or moved-away root is unwatched until it
 * exists again, then registered and refreshed whole. At start the tree is registered, then
 * refreshed whole (catching up what changed before); until then the watch is not {@link
 * State#CURRENT}.
 *
 * <p><b>Threads.</b> {@link #start} returns at once; registration and every refresh run on one
 * background thread ({@code prism-index-watch}), so refreshes never overlap. The {@link Refresher}
 * runs there and must let unchecked exceptions through unchanged (the embedding refresh is
 * stopped by one thrown from its progress listener). Thread-safe. Logs through SLF4J.
 */
public final class IndexWatch implements AutoCloseable {

  /** Runs one refresh of the watched index; a simple host passes {@code index::refresh}. */
  @FunctionalInterface
  public interface Refresher {
    /**
     * Refreshes the index as {@code refresh} says ({@link HybridIndex#refresh}).
     *
     * @throws IOException when the refresh fails (the watch retries, unscoped, with backoff)
     */
    IndexRunStats refresh(RefreshOptions refresh) throws IOException;
  }

  /** What the watch can vouch for. */
  public enum State {
    /** Every change seen so far is in the index: a caller may skip the freshness walk. */
    CURRENT,
    /** Changes are being indexed: a caller answers from the previous state and says so. */
    PENDING,
    /**
     * The watch cannot vouch (starting, the root is gone, registration or a refresh failed, or
     * closed): a caller checks freshness itself, as without a watch.
     */
    UNWATCHED
  }

  /**
   * What {@link #sync} found.
   *
   * @param state whether the index holds every change made before the call
   * @param pendingFiles paths whose changes are not in the index yet (being indexed or waiting)
   * @param refreshedFiles files added, changed or deleted by the refreshes that ended during the
   *     call
   */
  public record Sync(State state, int pendingFiles, int refreshedFiles) {}

  /**
   * A snapshot of the watch for status output and logs.
   *
   * @param state as {@link #sync} would report it without waiting (an event the system has not
   *     delivered yet is not counted)
   * @param watchedDirectories directories watched now (0 while unwatched)
   * @param pendingFiles paths whose changes are not in the index yet
   * @param eventsSeen events received about the repository, including those that caused no work
   *     (the fence's own events are not counted)
   * @param refreshesRun lexical refreshes run
   * @param lastRefresh how long the last lexical refresh took ({@link Duration#ZERO} before one)
   * @param lastError the last failure (registration, refresh, embedding), or null
   */
  public record Status(State state, int watchedDirectories, int pendingFiles, long eventsSeen,
      long refreshesRun, Duration lastRefresh, @Nullable String lastError) {}

  private final WatchLoop loop;

  private IndexWatch(WatchLoop loop) {
    this.loop = loop;
  }

  /**
   * Starts watching the repository of {@code options} in the background: registration and the
   * first whole refresh run on the watch's thread ({@link #status} shows their progress, {@link
   * #sync} waits for them). The index must be the one {@code refresher} refreshes; the watch
   * itself only reads the repository and writes its fence files in the index home (when that
   * exists).
   *
   * @throws NoSuchFileException when the root is not a directory
   * @throws IOException never otherwise: later failures make the watch {@link State#UNWATCHED}
   */
  public static IndexWatch start(HybridIndexOptions options, Refresher refresher)
      throws IOException {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(refresher, "refresher");
    if (!Files.isDirectory(options.root())) {
      throw new NoSuchFileException(options.root().toString(), null,
          "repository root is not a directory");
    }
    return new IndexWatch(WatchLoop.start(options, refresher));
  }

  /**
   * Brings the index up to every change made before this call, waiting at most {@code maxWait}:
   * proves that the system has delivered the events of those changes (a fence file passes
   * through the watch), then has pending events indexed at once (no debounce) and waits for that
   * refresh. While the watch starts, or registers the tree again, it waits for that first. Costs
   * about a millisecond when nothing changed; with a {@code maxWait} too short for the fence
   * (zero), delivery cannot be proven and the result is at best {@link State#PENDING} ({@link
   * #status} looks without waiting).
   *
   * @return {@link State#CURRENT} when the index holds every change made before the call, {@link
   *     State#PENDING} when {@code maxWait} ran out first, {@link State#UNWATCHED} when the watch
   *     cannot tell
   * @throws InterruptedIOException when the thread is interrupted while waiting
   */
  public Sync sync(Duration maxWait) throws InterruptedIOException {
    Objects.requireNonNull(maxWait, "maxWait");
    try {
      return loop.sync(maxWait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the watch");
    }
  }

  /** What the watch is doing now (no waiting, no I/O). */
  public Status status() {
    return loop.status();
  }

  /**
   * Stops watching: waits for a lexical refresh in flight to end (an embedding refresh stops after
   * its batches in flight), then releases every watch. Idempotent; {@link #sync} reports {@link
   * State#UNWATCHED} afterwards.
   */
  @Override
  public void close() {
    loop.close();
  }

  /** Loses events on purpose, as the system does on overflow (tests). */
  void simulateOverflow() {
    loop.simulateOverflow();
  }
}
