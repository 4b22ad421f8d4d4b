package dev.prismindex.repository;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A page of a listing: entries in walk order (breadth-first, by name within a directory).
 *
 * @param entries the page
 * @param truncatedBy why the listing stopped early; {@code null} when it is complete
 * @param scannedEntries entries visited
 * @param scannedFiles files visited
 * @param nextOffset the {@code offset} that continues the listing; set whenever truncated and
 *     continuing makes sense
 * @param offset the offset this page started at
 */
public record RepositoryListResult(
    List<RepoListEntry> entries,
    @Nullable TruncationReason truncatedBy,
    long scannedEntries,
    long scannedFiles,
    @Nullable Integer nextOffset,
    int offset) {

  public RepositoryListResult {
    entries = List.copyOf(entries);
  }

  /** Whether the listing stopped early. */
  public boolean truncated() {
    return truncatedBy != null;
  }
}
