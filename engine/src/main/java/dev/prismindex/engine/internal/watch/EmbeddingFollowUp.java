package dev.prismindex.engine.internal.watch;

import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.IndexWatch;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedding refreshes that follow the lexical ones: once nothing has changed for {@value
 * #QUIET_MS} ms, one refresh with embedding on, scoped to the paths refreshed lexically since the
 * last one (their walk finds nothing new), embeds the chunks that have no vector yet. Its progress
 * listener throws {@link Yield} once {@link #yieldNow} was called (an event arrived, or the watch
 * closes), which stops it after its batches in flight, whose vectors are committed; it runs again
 * after the next quiet period. The listener throws only in the embedding phase: the lexical commit
 * of the run is never cut short.
 *
 * <p>Used by the watch's worker only, except {@link #yieldNow}.
 */
final class EmbeddingFollowUp {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddingFollowUp.class);

  /** Quiet time before an embedding refresh starts. */
  static final long QUIET_MS = 2_000;

  /** Thrown by the progress listener to stop the embedding refresh after its batch. */
  private static final class Yield extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Yield() {
      super("the embedding refresh yields to lexical work", null, false, false);
    }
  }

  private final Path root;
  private final IndexWatch.Refresher refresher;
  private final boolean enabled;
  private final Backoff backoff = new Backoff();
  private boolean wanted;
  /** The paths refreshed lexically since the last embedding refresh; null: the whole tree. */
  private @Nullable SortedSet<String> scope = new TreeSet<>();
  private boolean disabled;
  private volatile boolean yield;

  /**
   * @param enabled whether semantic search is on and a model is present
   */
  EmbeddingFollowUp(Path root, IndexWatch.Refresher refresher, boolean enabled) {
    this.root = root;
    this.refresher = refresher;
    this.enabled = enabled;
  }

  /** After a lexical refresh of {@code refreshed} (empty with {@code whole}). */
  void afterLexical(boolean whole, Set<String> refreshed, @Nullable IndexRunStats stats) {
    if (whole || stats == null || stats.chunksWritten() == 0) {
      // Only the chunks of files the watch saw change: after a whole refresh (the catch-up at
      // start, an overflow) the missing vectors may be the whole index's (an index built without
      // embeddings, or left partly embedded by an interrupted run); `index` completes them, not a
      // server that would keep a core busy for as long as that takes.
      return;
    }
    wanted = true;
    SortedSet<String> s = scope;
    if (whole || s == null) {
      scope = null;
      return;
    }
    s.addAll(refreshed);
    SortedSet<String> folded = PathTriage.fold(s);
    scope = folded.size() > PathTriage.MAX_SCOPE_PATHS ? null : folded;
  }

  /**
   * Nanoseconds until an embedding refresh is due, given when the last event arrived (0 or less:
   * now); {@link Long#MAX_VALUE} when there is nothing to embed.
   */
  long dueIn(long nowNanos, long lastEventNanos) {
    if (!enabled || disabled || !wanted) {
      return Long.MAX_VALUE;
    }
    long quiet = lastEventNanos + TimeUnit.MILLISECONDS.toNanos(QUIET_MS) - nowNanos;
    return Math.max(quiet, backoff.dueIn(nowNanos));
  }

  /** Called when the worker decides to run it: from now on, an event makes it yield. */
  void arm() {
    yield = false;
  }

  /** Asks a running embedding refresh to stop after its batch (any thread). */
  void yieldNow() {
    yield = true;
  }

  /** Runs one embedding refresh; returns a failure to report, or null. */
  @Nullable String run() {
    SortedSet<String> s = scope;
    Set<String> paths = s == null ? Set.of() : Set.copyOf(s);
    try {
      IndexRunStats stats = refresher.refresh(RefreshOptions.INCREMENTAL.withScope(paths)
          .withProgress(this::progress));
      LOG.debug("watch embedding of {}: {} chunk texts embedded", root, stats.chunksEmbedded());
      wanted = false;
      scope = new TreeSet<>();
      backoff.succeeded();
      return null;
    } catch (Yield e) {
      LOG.debug("the embedding of {} yields to lexical work", root);
      return null;
    } catch (SemanticSearchUnavailableException e) {
      LOG.warn("the watch of {} stops embedding: {}", root, e.getMessage());
      disabled = true;
      return e.toString();
    } catch (IOException | RuntimeException e) {
      long delay = backoff.failed();
      LOG.debug("the embedding refresh of {} failed (retrying in {} ms)", root, delay, e);
      return e.toString();
    }
  }

  private void progress(IndexProgress p) {
    if (p.phase() == IndexProgress.Phase.EMBEDDING && yield) {
      throw new Yield();
    }
  }
}
