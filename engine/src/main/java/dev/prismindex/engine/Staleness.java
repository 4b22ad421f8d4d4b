package dev.prismindex.engine;

/**
 * A cheap estimate of how far the working tree has moved since the last commit, from a walk and
 * stat calls only (no file is read).
 *
 * @param added files the walk finds that the index does not have
 * @param modified indexed files whose size or modification time differs from the manifest
 * @param deleted indexed files the walk no longer finds
 * @param unchanged indexed files whose stat data matches the manifest
 * @param durationMs wall time of the probe
 */
public record Staleness(int added, int modified, int deleted, int unchanged, long durationMs) {
  /** Whether any file was added, modified or deleted. */
  public boolean isStale() {
    return added + modified + deleted > 0;
  }
}
