package dev.prismindex.engine;

import java.util.Map;
import java.util.Objects;

/**
 * A cheap estimate of how far the working tree has moved since the last commit, from a walk and
 * stat calls only (files the index lacks are sniffed, no other file is read).
 *
 * @param added files the walk finds that the index does not have
 * @param modified indexed files whose size or modification time differs from the manifest
 * @param deleted indexed files the walk no longer finds
 * @param unchanged indexed files whose stat data matches the manifest
 * @param durationMs wall time of the probe
 * @param skipped files the probe left out, by reason: the walk's rules (name, secret deny list,
 *     depth, path length, not regular) and private keys found by the sniff; none of them counts as
 *     a change
 */
public record Staleness(int added, int modified, int deleted, int unchanged, long durationMs,
    Map<SkipReason, Integer> skipped) {

  public Staleness {
    skipped = Map.copyOf(Objects.requireNonNull(skipped, "skipped"));
  }

  /** A probe result without skip counts. */
  public Staleness(int added, int modified, int deleted, int unchanged, long durationMs) {
    this(added, modified, deleted, unchanged, durationMs, Map.of());
  }

  /** Whether any file was added, modified or deleted. */
  public boolean isStale() {
    return added + modified + deleted > 0;
  }

  /** Total number of skipped files. */
  public int skippedTotal() {
    return skipped.values().stream().mapToInt(Integer::intValue).sum();
  }
}
