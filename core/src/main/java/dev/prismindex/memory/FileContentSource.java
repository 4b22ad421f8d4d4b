package dev.prismindex.memory;

import dev.prismindex.index.InMemoryIndex.ContentSource;
import dev.prismindex.repository.RelativePath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * {@link ContentSource#files(Path)}: reads a file under a real root without following links.
 *
 * <p>The parent directory's real path must equal its lexical path under the real root (so no
 * directory on the way is a link, and the file is inside the root), the file itself is checked with
 * {@code lstat} and opened with {@link LinkOption#NOFOLLOW_LINKS}. A path that is not canonical is a
 * caller error ({@link IllegalArgumentException}).
 */
final class FileContentSource implements ContentSource {

  private final Path realRoot;

  FileContentSource(Path root) throws IOException {
    this.realRoot = root.toRealPath();
    if (!Files.isDirectory(realRoot, LinkOption.NOFOLLOW_LINKS)) {
      throw new NotDirectoryException(root.toString());
    }
  }

  @Override
  public byte @Nullable [] read(String path, long maxBytes) throws IOException {
    if (!RelativePath.isCanonical(path)) {
      throw new IllegalArgumentException("not a canonical repository-relative path");
    }
    Path file = realRoot.resolve(path);
    Path parent = file.getParent();
    try {
      if (!parent.equals(realRoot) && !parent.toRealPath().equals(parent)) {
        return null; // a directory on the way is a symbolic link
      }
      BasicFileAttributes attributes =
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attributes.isRegularFile() || attributes.size() > maxBytes) {
        return null;
      }
      try (SeekableByteChannel channel =
          Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
        long size = channel.size();
        if (size > maxBytes) {
          return null;
        }
        byte[] bytes = new byte[(int) size];
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
          // read until full or end of file (a file that shrank meanwhile is cut)
        }
        return buffer.hasRemaining() ? Arrays.copyOf(bytes, buffer.position()) : bytes;
      }
    } catch (NoSuchFileException | NotDirectoryException gone) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "ContentSource.files";
  }
}
