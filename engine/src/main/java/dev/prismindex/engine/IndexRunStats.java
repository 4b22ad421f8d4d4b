package dev.prismindex.engine;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The counters of one indexing run.
 *
 * @param filesSeen files the walk produced (after directory pruning, before per-file skips)
 * @param hashed files whose bytes were read and hashed
 * @param added files new to the index
 * @param changed files whose content hash changed (their documents were replaced)
 * @param deleted files removed from the index (gone, or now skipped)
 * @param unchanged files whose content was unchanged (by stat where provably safe, else by hash)
 * @param skipped files left out, by reason
 * @param chunksWritten chunk documents written
 * @param chunksEmbedded distinct chunk texts embedded by this run (vectors added)
 * @param chunksReused chunks written by this run whose text already had a vector from an earlier
 *     run (the embedding cache); 0 when semantic search is unavailable
 * @param committed whether the run wrote a Lucene commit, lexical or vectors (false when nothing
 *     changed)
 * @param sourceRevision the revision recorded by the run's commit (or the current one when no commit)
 * @param durationMs wall time of the run
 * @param repaired why the run rebuilt the index whole instead of updating it: the damage its
 *     verification found ({@link RefreshOptions#withRepair()}, {@link RefreshOptions#FULL}); null
 *     when it found none
 */
public record IndexRunStats(
    int filesSeen,
    int hashed,
    int added,
    int changed,
    int deleted,
    int unchanged,
    Map<SkipReason, Integer> skipped,
    long chunksWritten,
    long chunksEmbedded,
    long chunksReused,
    boolean committed,
    @Nullable String sourceRevision,
    long durationMs,
    @Nullable String repaired) {

  public IndexRunStats {
    skipped = Map.copyOf(Objects.requireNonNull(skipped, "skipped"));
  }

  /** Total number of skipped files. */
  public int skippedTotal() {
    return skipped.values().stream().mapToInt(Integer::intValue).sum();
  }
}
