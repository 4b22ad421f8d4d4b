package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.chunk.SourceLines;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.engine.internal.pipeline.Hashing;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.StoreReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where a search reads a repository's files to verify and locate its hits: the working tree (the
 * current files: every answer is true of the tree now), or the copy the store keeps of each file
 * as its last commit indexed it ({@link StoreReader#content}), for a repository whose tree the
 * searching machine does not have.
 */
public interface FileSource {

  /**
   * The bytes of {@code path} to verify an exact search against, or null: when it is gone (not
   * counted), or cannot be read as text (counted in {@code notSearched} by reason).
   */
  byte @Nullable [] read(String path, Map<String, Integer> notSearched);

  /** The content of {@code path} checked against its manifest entry. */
  FileView view(String path, @Nullable FileEntry entry);

  /** The files of the working tree at {@code root}. */
  static FileSource tree(Path root, long maxFileBytes) {
    return new FileSource() {
      @Override
      public byte @Nullable [] read(String path, Map<String, Integer> notSearched) {
        Path file = FileNames.resolve(root, path);
        if (file == null) {
          notSearched.merge("unreadable", 1, Integer::sum); // a name this JVM cannot encode
          return null;
        }
        try {
          if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
          }
          byte[] bytes;
          try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxFileBytes + 1));
          }
          return text(bytes, maxFileBytes, notSearched);
        } catch (NoSuchFileException e) {
          return null;
        } catch (IOException e) {
          notSearched.merge("unreadable", 1, Integer::sum);
          return null;
        }
      }

      @Override
      public FileView view(String path, @Nullable FileEntry entry) {
        return FileView.load(root, path, entry, maxFileBytes);
      }
    };
  }

  /**
   * The copies {@code reader} keeps of the files of {@code repository} (null: its one
   * repository). A stored copy is the content the commit indexed, so it is fresh when its hash is
   * the manifest entry's.
   */
  static FileSource stored(StoreReader reader, @Nullable String repository, long maxFileBytes) {
    return new FileSource() {
      @Override
      public byte @Nullable [] read(String path, Map<String, Integer> notSearched) {
        byte[] bytes = content(path);
        return bytes == null ? null : text(bytes, maxFileBytes, notSearched);
      }

      @Override
      public FileView view(String path, @Nullable FileEntry entry) {
        byte[] bytes = content(path);
        if (bytes == null || bytes.length > maxFileBytes
            || FileReader.isBinary(bytes, bytes.length)) {
          return new FileView(FileView.State.GONE, null);
        }
        FileView.State state = entry != null
            && Hashing.blake3(bytes, bytes.length).equals(entry.hash())
            ? FileView.State.FRESH : FileView.State.CHANGED;
        return new FileView(state, SourceLines.split(FileReader.decode(bytes, bytes.length)));
      }

      private byte @Nullable [] content(String path) {
        try {
          return reader.content(repository, path);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
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
