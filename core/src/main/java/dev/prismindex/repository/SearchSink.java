package dev.prismindex.repository;

import java.util.List;

/**
 * Receives the matches of a streamed search ({@link RepositoryOperations#stream}) as they are
 * found, in path order (UTF-16) and line order within a file, each once its after-context is
 * complete. Called on the searching thread.
 */
@FunctionalInterface
public interface SearchSink {

  /**
   * Whether the search should read {@code path} at all (a filter the walk cannot express: several
   * scopes, languages, globs). Every file by default.
   *
   * @param path the root-relative, {@code /}-separated path of a file the walk found
   */
  default boolean wants(String path) {
    return true;
  }

  /**
   * One match.
   *
   * @param match the matching line, as {@link RepositoryOperations#search} reports it
   * @param spans every match in the line, in order ({@link SearchMode#LITERAL}: the first only;
   *     an empty match only when it is the first); the first starts at {@code match.column()};
   *     empty when the operations do not know them
   * @return {@code false} to stop the search (reported as {@link TruncationReason#ABORT})
   */
  boolean accept(RepositorySearchMatch match, List<MatchSpan> spans);
}
