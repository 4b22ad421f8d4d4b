package dev.prismindex.engine.internal.walk;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Repository paths as files of this JVM. A JVM encodes file names in the character set of the
 * locale it started in, ASCII in the C locale: a path outside that set names no file it can open
 * ({@link Path#resolve} throws), and a name on disk that is not valid in it reads back with
 * replacement characters, which name another file. Such a file is left out (counted as
 * unreadable), never a failed run or search.
 */
public final class FileNames {

  private FileNames() {}

  /** {@code rel} ('/'-separated) below {@code root}, or null when this JVM cannot name it. */
  public static @Nullable Path resolve(Path root, String rel) {
    try {
      return root.resolve(rel);
    } catch (InvalidPathException e) {
      return null;
    }
  }

  /**
   * Whether {@code rel}, the name a listing gave {@code file}, names that file again: false when
   * the listing decoded the name with replacement characters, or this JVM cannot encode it.
   */
  static boolean namesAgain(Path root, String rel, Path file) {
    return file.equals(resolve(root, rel));
  }
}
