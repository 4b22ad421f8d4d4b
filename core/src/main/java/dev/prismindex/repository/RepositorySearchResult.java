package dev.prismindex.repository;

import dev.prismindex.index.IndexAttestation;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a search: matches sorted by path (UTF-16 order), line, then column, with the scan's
 * counters and, when truncated, the reason.
 *
 * <p>A result produced by an index backend carries {@link #indexed()} (mode, state and the revision
 * and time the index attested) and is then {@linkplain #untrustedIndex() untrusted}: its paths and
 * scores were validated, but its content comes from the index, which may lag the working tree.
 *
 * @param matches the matches, at most the request's {@code maxMatches}
 * @param truncatedBy why the result stopped early; {@code null} when it is complete
 * @param scannedBytes line bytes read (newlines excluded)
 * @param scannedFiles files whose scan began, including binary, oversize and unreadable ones
 * @param scannedEntries entries the walk visited (the whole bounded enumeration)
 * @param filesSkippedBinary files skipped because a NUL byte was found
 * @param filesSkippedOversize files skipped because they exceed {@code maxFileBytes}
 * @param filesSkippedUnreadable files skipped because they could not be opened or read (also a file
 *     swapped for a link after the walk, which is never followed)
 * @param indexed what the index attested, for index results; {@code null} for literal results
 */
public record RepositorySearchResult(
    List<RepositorySearchMatch> matches,
    @Nullable TruncationReason truncatedBy,
    long scannedBytes,
    long scannedFiles,
    long scannedEntries,
    long filesSkippedBinary,
    long filesSkippedOversize,
    long filesSkippedUnreadable,
    @Nullable IndexAttestation indexed) {

  public RepositorySearchResult {
    matches = List.copyOf(matches);
  }

  /** A result without unreadable files (index results, and callers that do not count them). */
  public RepositorySearchResult(List<RepositorySearchMatch> matches,
      @Nullable TruncationReason truncatedBy, long scannedBytes, long scannedFiles,
      long scannedEntries, long filesSkippedBinary, long filesSkippedOversize,
      @Nullable IndexAttestation indexed) {
    this(matches, truncatedBy, scannedBytes, scannedFiles, scannedEntries, filesSkippedBinary,
        filesSkippedOversize, 0, indexed);
  }

  /** Whether the result stopped early ({@link #truncatedBy()} is set). */
  public boolean truncated() {
    return truncatedBy != null;
  }

  /** Whether the result came from an index (and so must be treated as untrusted). */
  public boolean untrustedIndex() {
    return indexed != null;
  }
}
