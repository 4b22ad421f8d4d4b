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

  /**
   * The bytes of {@code path} as {@link #read(String, Map)} gives them, put in {@code into}
   * (which a reader may fill in place, reusing its array from file to file).
   *
   * @return false when {@link #read(String, Map)} gives null (what {@code into} holds is then
   *     undefined)
   */
  default boolean read(String path, Map<String, Integer> notSearched, Buffer into) {
    byte[] bytes = read(path, notSearched);
    if (bytes == null) {
      return false;
    }
    into.set(bytes, bytes.length, false);
    return true;
  }

  /**
   * The bytes of one file after another ({@link #read(String, Map, Buffer)}): the first
   * {@link #length()} of {@link #bytes()}, valid until the next read into it. Not thread-safe.
   */
  final class Buffer {
    private byte[] bytes = new byte[0];
    private int length;
    /** Whether {@link #bytes} is this buffer's own (so it may be read into again). */
    private boolean own;

    public byte[] bytes() {
      return bytes;
    }

    public int length() {
      return length;
    }

    void set(byte[] value, int valueLength, boolean owned) {
      bytes = value;
      length = valueLength;
      own = owned;
    }

    /**
     * An array of this buffer's own of at least {@code size} bytes (its content not kept): a new
     * one at least twice the last, so a run of ever larger files allocates few.
     */
    byte[] room(int size) {
      if (!own) {
        bytes = new byte[size];
        own = true;
      } else if (bytes.length < size) {
        bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 16,
            Math.max(size, 2L * bytes.length))];
      }
      return bytes;
    }

    /** The bytes as an array of their own length. */
    byte[] copy() {
      return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }
  }

  /** The files of the working tree at {@code root}. */
  static ContentReader tree(Path root, long maxFileBytes) {
    return new ContentReader() {
      @Override
      public byte @Nullable [] read(String path, Map<String, Integer> notSearched) {
        Buffer fresh = new Buffer(); // sized to the file: no copy unless it grew
        return read(path, notSearched, fresh) ? fresh.copy() : null;
      }

      @Override
      public boolean read(String path, Map<String, Integer> notSearched, Buffer into) {
        Path file = FileNames.resolve(root, path);
        if (file == null) {
          notSearched.merge("unreadable", 1, Integer::sum); // a name this JVM cannot encode
          return false;
        }
        try {
          // One stat (a pipe or a link is never opened), then one read of the size it gave.
          BasicFileAttributes a =
              Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          if (!a.isRegularFile()) {
            return false;
          }
          if (a.size() > maxFileBytes) {
            notSearched.merge("oversize", 1, Integer::sum);
            return false;
          }
          try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] buffer = into.room((int) a.size());
            int n = in.readNBytes(buffer, 0, (int) a.size());
            int more = in.read();
            if (more < 0) {
              into.set(buffer, n, true);
            } else {
              // It grew since the stat: read on, up to the cap.
              ByteArrayOutputStream all = new ByteArrayOutputStream(n + 1024);
              all.write(buffer, 0, n);
              all.write(more);
              all.write(in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxFileBytes - n)));
              byte[] grown = all.toByteArray();
              into.set(grown, grown.length, true);
            }
          }
          return text(into.bytes(), into.length(), maxFileBytes, notSearched);
        } catch (NoSuchFileException e) {
          return false;
        } catch (IOException e) {
          notSearched.merge("unreadable", 1, Integer::sum);
          return false;
        }
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
      return bytes == null || !text(bytes, bytes.length, maxFileBytes, notSearched) ? null
          : bytes;
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

  /**
   * Whether the first {@code length} of {@code bytes} are text within the size cap (if not,
   * counted by reason).
   */
  private static boolean text(byte[] bytes, int length, long maxFileBytes,
      Map<String, Integer> notSearched) {
    if (length > maxFileBytes) {
      notSearched.merge("oversize", 1, Integer::sum);
      return false;
    }
    if (FileReader.isBinary(bytes, length)) {
      notSearched.merge("binary", 1, Integer::sum);
      return false;
    }
    return true;
  }
}
