package dev.prismindex.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-tree helpers shared by the benchmarks and their harnesses. */
public final class Trees {
  private Trees() {}

  /**
   * Deletes {@code dir} and everything below it (links are deleted, never followed); nothing when
   * it does not exist.
   *
   * @throws UncheckedIOException when a file cannot be deleted
   */
  public static void delete(Path dir) {
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
