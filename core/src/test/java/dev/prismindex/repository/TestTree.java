package dev.prismindex.repository;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds small file trees under a temporary directory. */
final class TestTree {

  private final Path root;

  TestTree(Path root) {
    this.root = root;
  }

  Path root() {
    return root;
  }

  Path path(String relative) {
    return root.resolve(relative);
  }

  TestTree file(String relative, String content) {
    return file(relative, content.getBytes(StandardCharsets.UTF_8));
  }

  TestTree file(String relative, byte[] content) {
    try {
      Path file = root.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.write(file, content);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  TestTree dir(String relative) {
    try {
      Files.createDirectories(root.resolve(relative));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creates a symbolic link at {@code relative} pointing at {@code target} (taken literally). */
  TestTree link(String relative, Path target) {
    try {
      Path link = root.resolve(relative);
      Files.createDirectories(link.getParent());
      Files.createSymbolicLink(link, target);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
