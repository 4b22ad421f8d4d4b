package dev.prismindex.repository;


/**
 * Bounded read-only operations over a working tree: literal and regex {@link #search} (or
 * {@link #stream}), {@link #list} and {@link #glob}.
 *
 * <p>Implementations never follow symbolic links, never leave the request's root, and report every
 * early stop as a {@link TruncationReason} instead of failing: an abort or a deadline returns what was
 * found so far. Invalid requests fail with {@link RepositoryException} (bad path, query or pattern) or
 * {@link IllegalArgumentException} (a knob outside its limits). Implementations are thread-safe.
 */
public interface RepositoryOperations {

  /**
   * Finds lines containing {@code request.query()}.
   *
   * @throws RepositoryException for an invalid query or path, or an unreadable root
   * @throws IllegalArgumentException for a knob outside its limits
   */
  RepositorySearchResult search(RepositorySearchRequest request);

  /**
   * Searches as {@link #search} does, but hands each match to {@code sink} as soon as it is found
   * (path order, then line order) instead of collecting them, and reads only the files the sink
   * {@linkplain SearchSink#wants wants}. A {@code null} {@code maxMatches} means no cap (the walk,
   * scan and time limits still bound the search); when set, the cap is applied as by
   * {@link #search} ({@link TruncationReason#MATCHES} only when a further match exists). The
   * result holds the counters and the truncation, and no matches.
   *
   * <p>The default collects with {@link #search} and then hands the matches over, without spans.
   *
   * @throws RepositoryException for an invalid query or path, or an unreadable root
   * @throws IllegalArgumentException for a knob outside its limits
   */
  default RepositorySearchResult stream(RepositorySearchRequest request, SearchSink sink) {
    RepositorySearchResult r = search(request);
    for (RepositorySearchMatch m : r.matches()) {
      if (!sink.wants(m.path())) {
        continue;
      }
      if (!sink.accept(m, java.util.List.of())) {
        return new RepositorySearchResult(java.util.List.of(), TruncationReason.ABORT,
            r.scannedBytes(), r.scannedFiles(), r.scannedEntries(), r.filesSkippedBinary(),
            r.filesSkippedOversize(), r.filesSkippedUnreadable(), r.indexed());
      }
    }
    return new RepositorySearchResult(java.util.List.of(), r.truncatedBy(), r.scannedBytes(),
        r.scannedFiles(), r.scannedEntries(), r.filesSkippedBinary(), r.filesSkippedOversize(),
        r.filesSkippedUnreadable(), r.indexed());
  }

  /**
   * Lists entries below the start path, breadth-first, one page at a time.
   *
   * @throws RepositoryException for an invalid path or an unreadable root
   * @throws IllegalArgumentException for a knob outside its limits
   */
  RepositoryListResult list(RepositoryListRequest request);

  /**
   * Lists files whose root-relative path matches a glob, one page at a time.
   *
   * @throws RepositoryException for an invalid pattern or path, or an unreadable root
   * @throws IllegalArgumentException for a knob outside its limits
   */
  RepositoryGlobResult glob(RepositoryGlobRequest request);

  /** Operations over a plain file-system walk, bound to {@code limits}. */
  static RepositoryOperations local(RepositoryLimits limits) {
    return new LocalRepositoryOperations(limits, NativeWalk.INSTANCE);
  }

  /**
   * Operations that enumerate like {@code git ls-files --cached --others --exclude-standard} when a
   * request's root is inside a git work tree, and otherwise use {@code options.fallback()}.
   *
   * <p>Detection runs against each request's own root (a positive answer is cached per root, a
   * negative one is not), so a repository created later is picked up.
   */
  static RepositoryOperations gitAware(GitAwareOptions options) {
    return new GitAwareRepositoryOperations(options);
  }

  /**
   * Operations over the files {@code listing} names (the {@link FileListing} SPI: the engine's
   * walk, so that the scanner reads what the index reads), bound to {@code limits}; the listed
   * paths are walked as the file system is, with each request's hidden-name and exclude rules.
   */
  static RepositoryOperations listed(FileListing listing, RepositoryLimits limits) {
    return new LocalRepositoryOperations(limits,
        new ListedWalk(java.util.Objects.requireNonNull(listing, "listing")));
  }
}
