package dev.prismindex.memory;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where {@link InMemoryIndexBackend} reads the content of a changed file. The default,
 * {@link #files(Path)}, reads the working tree; tests and benchmarks supply content directly.
 *
 * <p>Implementations must be safe to call from the thread that runs an update (one call at a time per
 * backend).
 */
@FunctionalInterface
public interface ContentSource {

  /**
   * Reads the current content of one file.
   *
   * @param path a canonical repository-relative path ({@code a/b.txt}: {@code /}-separated, no empty,
   *     {@code .} or {@code ..} segment)
   * @param maxBytes the largest file the index accepts; a larger file should not be read
   * @return the file's bytes (the index keeps this array: do not reuse it), or {@code null} when the
   *     path does not name a regular file that may be indexed (absent, a directory, a symbolic link,
   *     or larger than {@code maxBytes}); the index then drops the path
   * @throws IOException when the file exists but cannot be read; the whole update then fails and the
   *     index reports {@code failed} until a later update succeeds
   */
  byte @org.jspecify.annotations.Nullable [] read(String path, long maxBytes) throws IOException;

  /**
   * Reads files under {@code root} the way the literal scanner sees them: never through a symbolic
   * link (neither the file nor any directory on its way from the root may be one), so nothing outside
   * the root is ever read, and never a file larger than {@code maxBytes}.
   *
   * @throws IOException when {@code root} cannot be resolved to a real directory
   */
  static ContentSource files(Path root) throws IOException {
    return new FileContentSource(root);
  }
}
