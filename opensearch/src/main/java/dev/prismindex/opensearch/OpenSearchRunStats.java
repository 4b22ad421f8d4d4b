package dev.prismindex.opensearch;

/**
 * What one {@link OpenSearchIndex#refresh} did.
 *
 * @param added files indexed for the first time
 * @param changed files re-indexed
 * @param deleted files removed (gone, or now left out)
 * @param unchanged files found unchanged
 * @param skipped files left out (by name, size, content, ...)
 * @param chunksWritten chunk documents sent
 * @param resumed whether the run completed an interrupted one (every file re-hashed)
 * @param millis wall time
 */
public record OpenSearchRunStats(int added, int changed, int deleted, int unchanged, int skipped,
    long chunksWritten, boolean resumed, long millis) {}
