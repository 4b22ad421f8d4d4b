package dev.prismindex.repository;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Literal search, list and glob over a {@link RepoWalk} (the native file-system walk, or git's file
 * list), bound to one set of {@link RepositoryLimits}.
 *
 * <p>The semantics follow the reference's {@code searchLocal}/{@code listLocal}/{@code globLocal}
 * with these deliberate differences:
 *
 * <ul>
 *   <li>The match cap is applied after sorting: files are enumerated first, sorted by path and
 *       scanned in that order, so a truncated search holds the lexicographically first matches; and
 *       {@link TruncationReason#MATCHES} is reported only when a further match exists (exactly
 *       {@code maxMatches} matches is a complete result). See {@link LiteralSearch}.
 *   <li>Columns are measured in the original line in case-insensitive mode too ({@link
 *       LiteralPattern#column}).
 *   <li>A CR at the very end of a file is stripped like the CR of CRLF (the reference keeps it).
 *   <li>Request {@code deadlineMs} is validated (1..300 000, name {@code deadlineMs}).
 *   <li>A file that cannot be opened or read is counted in {@code scannedFiles} and skipped; the
 *       skip is logged at debug level.
 *   <li>An already-aborted signal is noticed before any work on the file system, in list and glob
 *       too, and returns an empty result truncated by {@link TruncationReason#ABORT}.
 * </ul>
 *
 * <p>{@link RepositoryLimits#maxConcurrency()} is validated but unused: the scanner reads one file
 * at a time, which keeps the result deterministic and the memory bounded. Thread-safe: every call
 * keeps its state on its own stack.
 */
final class LocalRepositoryOperations implements RepositoryOperations {

  private final RepositoryLimits limits;
  private final RepoWalk walk;
  private final LongSupplier nanoClock;

  LocalRepositoryOperations(RepositoryLimits limits, RepoWalk walk) {
    this(limits, walk, System::nanoTime);
  }

  /** With an injectable clock, so tests can drive deadlines deterministically. */
  LocalRepositoryOperations(RepositoryLimits limits, RepoWalk walk, LongSupplier nanoClock) {
    this.limits = java.util.Objects.requireNonNull(limits, "limits");
    this.walk = walk;
    this.nanoClock = nanoClock;
  }

  RepositoryLimits limits() {
    return limits;
  }

  @Override
  public RepositorySearchResult search(RepositorySearchRequest request) {
    return LiteralSearch.run(request, limits, walk, nanoClock);
  }

  @Override
  public RepositorySearchResult stream(RepositorySearchRequest request, SearchSink sink) {
    return LiteralSearch.run(request, limits, walk, nanoClock, java.util.Objects.requireNonNull(
        sink, "sink"));
  }

  @Override
  public RepositoryListResult list(RepositoryListRequest request) {
    return Listing.list(request, limits, walk, nanoClock);
  }

  @Override
  public RepositoryGlobResult glob(RepositoryGlobRequest request) {
    return Listing.glob(request, limits, walk, nanoClock);
  }

  /** The request's exclude list, or the limits' list when the request has none. */
  static Set<String> exclude(@Nullable List<String> requested, RepositoryLimits limits) {
    return Set.copyOf(new LinkedHashSet<>(requested == null ? limits.exclude() : requested));
  }

  /** The request's deadline, validated, or the limits' {@code maxTimeMs}. */
  static long deadlineMs(@Nullable Long requested, RepositoryLimits limits) {
    return RepositoryLimits.requireTimeMs("deadlineMs",
        requested == null ? limits.maxTimeMs() : requested);
  }

  @Override
  public String toString() {
    return "LocalRepositoryOperations[" + (walk instanceof ListedWalk listed
        ? listed.listingName() : walk.getClass().getSimpleName()) + "]";
  }
}
