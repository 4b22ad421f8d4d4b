package dev.prismindex.repository;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import org.jspecify.annotations.Nullable;

/**
 * The file-listing SPI of the literal operations: which files of a repository {@link
 * RepositoryOperations#listed search, list and glob} see. Core's own implementation is git's
 * listing ({@code git ls-files --cached --others --exclude-standard}, what {@link
 * RepositoryOperations#gitAware} uses inside a work tree); the engine implements it with the walk
 * its index uses (JGit, {@code .prismignore}, the secret deny list), so that the scanner and the
 * index read the same files.
 *
 * <p>The paths become a tree that the operations walk as they walk the file system: breadth-first,
 * by name, with the request's hidden-name, exclude, depth, entry and file rules, kinds from
 * {@code lstat} (a link is never followed; a listed path that no longer exists is left out).
 * Implementations must be thread-safe.
 */
@FunctionalInterface
public interface FileListing {

  /**
   * The files below {@code realRoot}, as root-relative, {@code /}-separated paths, in any order
   * (a path ending in {@code /} names a directory; paths with empty, {@code .} or {@code ..}
   * names, and those below {@code .git/}, are dropped).
   *
   * @param realRoot the real path of the request's root
   * @param signal the operation's abort signal, or null
   * @param timeoutMillis the time left to the operation's deadline
   * @throws IOException when the files cannot be listed; the operation then fails with a {@link
   *     RepositoryException} holding its message
   */
  Collection<String> files(Path realRoot, @Nullable AbortSignal signal, long timeoutMillis)
      throws IOException;
}
