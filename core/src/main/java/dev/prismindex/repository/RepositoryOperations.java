package dev.prismindex.repository;


/**
 * Bounded read-only operations over a working tree: literal {@link #search}, {@link #list} and
 * {@link #glob}.
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
}
