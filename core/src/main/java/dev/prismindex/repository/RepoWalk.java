package dev.prismindex.repository;

import java.nio.file.Path;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Enumerates the entries below a start directory for search, list and glob. Two implementations:
 * {@link NativeWalk} (the file system) and {@link ListedWalk} (the files a {@link FileListing}, such
 * as git's {@link LsFilesWalk}, reports). Both
 * share {@link BreadthFirstWalk}, so their order, limits and skip rules are the same.
 */
interface RepoWalk {

  /**
   * What to walk and how far.
   *
   * @param realRoot the real root; entry paths are relative to it
   * @param start the directory to walk
   * @param startRelative {@code start} relative to the root ({@code "."} for the root)
   * @param includeHidden whether names starting with {@code .} are entered
   * @param exclude base names never entered
   * @param maxDepth deepest level entered below the start
   * @param maxEntries entries visited before stopping with {@link TruncationReason#ENTRIES}
   * @param maxFiles files visited before stopping with {@link TruncationReason#FILES}
   * @param guard abort signal and deadline
   */
  record Request(
      Path realRoot,
      Path start,
      String startRelative,
      boolean includeHidden,
      Set<String> exclude,
      int maxDepth,
      int maxEntries,
      int maxFiles,
      OperationGuard guard) {}

  /**
   * One visited entry.
   *
   * @param path root-relative, {@code /}-separated
   * @param absolute the entry on disk (never followed if it is a link)
   * @param kind from {@code lstat}
   * @param size byte size from {@code lstat} (meaningful for files)
   */
  record Entry(String path, Path absolute, RepoEntryKind kind, long size) {}

  /** Receives entries in walk order; returns {@code false} to stop the walk. */
  @FunctionalInterface
  interface Visitor {
    boolean visit(Entry entry);
  }

  /**
   * Walks, passing every entry to {@code visitor}.
   *
   * @return the limit that stopped the walk ({@link TruncationReason#ENTRIES}, {@link
   *     TruncationReason#FILES} or {@link TruncationReason#DEPTH}), or {@code null} when the walk
   *     completed or the visitor stopped it
   * @throws OperationStopped when the request is aborted or its deadline passes
   * @throws RepositoryException when the start cannot be enumerated
   */
  @Nullable TruncationReason walk(Request request, Visitor visitor);
}
