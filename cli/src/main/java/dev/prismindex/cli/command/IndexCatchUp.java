package dev.prismindex.cli.command;

import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.IndexLockedException;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.IndexWatch;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.Staleness;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The freshness policy of a search: before it answers, the index is brought up to date with the
 * working tree, or the answer says how far behind it is, or the search is refused (exit 3) when
 * more files changed than the request allows. One policy for a repository and for each repository
 * of a workspace.
 */
final class IndexCatchUp {
  private IndexCatchUp() {}

  /**
   * The most chunks a search embeds before answering after re-indexing changed files (about a
   * second with the bundled model on two cores); more are left to {@code prism-index index}.
   */
  static final long EMBED_BEFORE_ANSWER = 64;

  /**
   * How long a search waits for a watch to index the changes it has seen and not indexed yet;
   * after that it answers from the previous state and says so.
   */
  static final Duration WATCH_WAIT = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(IndexCatchUp.class);

  /**
   * With a watch (a resident or MCP server): asks it, waiting up to {@link #WATCH_WAIT} for the
   * changes it has seen to be indexed (no walk; their embeddings follow in the background), and
   * answers from the previous state, saying so, when they take longer. Otherwise, or when the watch
   * cannot vouch for the index (starting, root gone): runs the cheap probe; re-indexes a small change
   * set (lexical documents first, so lexical answers are current at once), refuses a large one (exit 3). For a mode that uses the model,
   * the new chunks are embedded before answering only when there are few of them
   * ({@value #EMBED_BEFORE_ANSWER} at most); otherwise the answer reports partial coverage. While
   * the index is being written (by another process, or by an indexing run of this one), the old
   * commit answers and the freshness says so.
   */
  static Freshness freshness(IndexAccess.Lease lease, SearchRequest request, SearchMode mode)
      throws CliFailure, IOException {
    HybridIndex index = lease.index();
    IndexWatch watch = lease.watch();
    if (watch != null) {
      IndexWatch.Sync sync = watch.sync(WATCH_WAIT);
      switch (sync.state()) {
        case CURRENT -> {
          return new Freshness(true, sync.refreshedFiles(), sync.refreshedFiles(), false, false);
        }
        case PENDING -> {
          return new Freshness(true, sync.pendingFiles(), 0, true, false);
        }
        case UNWATCHED -> LOG.debug("the watch cannot vouch for the index; probing the tree");
      }
    }
    return afterProbe(lease, request, mode, index.staleness());
  }

  /**
   * The probe's part of {@link #freshness}, given the probe's answer (which the caller may have
   * computed while it searched): nothing to do when no file changed; else re-indexes a small change
   * set or refuses a large one, as {@link #freshness} says.
   */
  static Freshness afterProbe(IndexAccess.Lease lease, SearchRequest request, SearchMode mode,
      Staleness s) throws CliFailure, IOException {
    HybridIndex index = lease.index();
    int changed = ExactStream.changedFiles(s);
    if (changed == 0) {
      return Freshness.CLEAN;
    }
    if (changed > request.maxRefreshFiles()) {
      throw new CliFailure(ExitCode.INDEX, "index is stale: " + changed + " files changed since"
          + " the last index run (more than --max-refresh-files " + request.maxRefreshFiles()
          + "); run `prism-index index`, or pass --no-refresh to search the old index");
    }
    if (!lease.tryWrite()) {
      return new Freshness(true, changed, 0, true, false);
    }
    try {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false));
      if (mode.needsSemantic()) {
        EngineStatus after = index.engineStatus();
        long missing = after.coverage().missing();
        if (after.semantic() == SemanticState.AVAILABLE && missing > 0
            && missing <= EMBED_BEFORE_ANSWER) {
          index.refresh(RefreshOptions.INCREMENTAL);
        }
      }
      return new Freshness(true, changed, stats.added() + stats.changed() + stats.deleted(), false,
          false);
    } catch (IndexLockedException e) {
      return new Freshness(true, changed, 0, true, e.readOnly());
    } catch (SemanticSearchUnavailableException e) {
      throw LocalBackend.unavailable(mode, e.state(), e.getMessage(), e);
    } finally {
      lease.endWrite();
    }
  }
}
