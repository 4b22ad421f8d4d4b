package dev.prismindex.repository;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A page of the files matching a glob, in walk order.
 *
 * @param paths the matching root-relative file paths
 * @param truncatedBy why the glob stopped early; {@code null} when it is complete
 * @param scannedEntries entries visited
 * @param scannedFiles files visited
 * @param nextOffset the {@code offset} that continues the glob, when truncated
 * @param offset the offset this page started at
 */
public record RepositoryGlobResult(
    List<String> paths,
    @Nullable TruncationReason truncatedBy,
    long scannedEntries,
    long scannedFiles,
    @Nullable Integer nextOffset,
    int offset) {

  public RepositoryGlobResult {
    paths = List.copyOf(paths);
  }

  /** Whether the glob stopped early. */
  public boolean truncated() {
    return truncatedBy != null;
  }
}
