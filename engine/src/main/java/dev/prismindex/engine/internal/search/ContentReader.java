package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.chunk.SourceLines;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.engine.internal.pipeline.Hashing;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.StoreReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where exact search reads a candidate's bytes to verify it ({@link LiteralSearcher}): the working
 * tree (the current files: every match is true of the tree now), or the copy a store keeps of each
 * file as its last commit indexed it ({@link StoreReader#content}), for a repository whose tree the
 * searching machine does not have. {@link #storedView} is the same copy as {@link HitLocator}
 * reads it.
 */
@FunctionalInterface
public interface ContentReader {

  /**
   * The bytes of {@code path}, or null: when it is gone (not counted), or cannot be read as text
   * (counted in {@code notSearched} by reason).
   */
  byte @Nullable [] read(String path, Map<String, Integer> notSearched);

  /** The files of the working tree at {@code root}. */
  static ContentReader tree(Path root, long maxFileBytes) {
    return (path, notSearched) -> {
      Path file = FileNames.resolve(root, path);
      if (file == null) {
        notSearched.merge("unreadable", 1, Integer::sum); // a name this JVM cannot encode
        return null;
      }
      try {
        // One stat (a pipe or a link is never opened), then one read of the size it gave.
        BasicFileAttributes a =
            Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) {
          return null;
        }
        if (a.size() > maxFileBytes) {
          notSearched.merge("oversize", 1, Integer::sum);
          return null;
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
          byte[] buffer = new byte[(int) a.size()];
          int n = in.readNBytes(buffer, 0, buffer.length);
          int more = in.read();
          if (more < 0) {
            bytes = n == buffer.length ? buffer : Arrays.copyOf(buffer, n);
          } else {
            // It grew since the stat: read on, up to the cap.
            ByteArrayOutputStream all = new ByteArrayOutputStream(n + 1024);
            all.write(buffer, 0, n);
            all.write(more);
            all.write(in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxFileBytes - n)));
            bytes = all.toByteArray();
          }
        }
        return text(bytes, maxFileBytes, notSearched);
      } catch (NoSuchFileException e) {
        return null;
      } catch (IOException e) {
        notSearched.merge("unreadable", 1, Integer::sum);
        return null;
      }
    };
  }

  /** The copies {@code reader} keeps of the files of {@code repository}. */
  static ContentReader stored(StoreReader reader, @Nullable String repository,
      long maxFileBytes) {
    return (path, notSearched) -> {
      byte[] bytes;
      try {
        bytes = reader.content(repository, path);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return bytes == null ? null : text(bytes, maxFileBytes, notSearched);
    };
  }

  /**
   * A stored copy ({@code bytes}, null when the store keeps none) checked against its manifest
   * entry: fresh when its hash is the entry's (it is the content the commit indexed), gone when
   * missing, binary or over the cap.
   */
  static FileView storedView(byte @Nullable [] bytes, @Nullable FileEntry entry,
      long maxFileBytes) {
    if (bytes == null || bytes.length > maxFileBytes
        || FileReader.isBinary(bytes, bytes.length)) {
      return new FileView(FileView.State.GONE, null);
    }
    FileView.State state = entry != null
        && Hashing.blake3(bytes, bytes.length).equals(entry.hash())
        ? FileView.State.FRESH : FileView.State.CHANGED;
    return new FileView(state, SourceLines.split(FileReader.decode(bytes, bytes.length)));
  }

  /** {@code bytes} when they are text within the size cap, else null (counted by reason). */
  private static byte @Nullable [] text(byte[] bytes, long maxFileBytes,
      Map<String, Integer> notSearched) {
    if (bytes.length > maxFileBytes) {
      notSearched.merge("oversize", 1, Integer::sum);
      return null;
    }
    if (FileReader.isBinary(bytes, bytes.length)) {
      notSearched.merge("binary", 1, Integer::sum);
      return null;
    }
    return bytes;
  }
}
