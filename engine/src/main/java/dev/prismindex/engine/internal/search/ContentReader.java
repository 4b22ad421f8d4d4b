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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
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
    into.set(bytes, bytes.length);
    return true;
  }

  /**
   * The bytes of one file after another ({@link #read(String, Map, Buffer)}): the first
   * {@link #length()} of {@link #bytes()}, valid until the next read into it. Files of up to
   * {@value #KEPT_BYTES} bytes are read into one array of its own, kept from file to file; a larger
   * file gets an array of its own size, dropped after it (so no buffer holds a large array from
   * one search to the next). Not thread-safe; {@link #take} and {@link #release} share a few
   * buffers between the searches of a process.
   */
  final class Buffer {
    /** The largest array a buffer keeps. */
    static final int KEPT_BYTES = 256 * 1024;
    /** The most buffers kept between searches (one a verifying thread, and the caller's). */
    private static final int POOLED = OrderedVerify.THREADS + 1;

    private static final ConcurrentLinkedQueue<Buffer> POOL = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger POOL_SIZE = new AtomicInteger();

    private byte[] bytes = new byte[0];
    private int length;
    /** The array kept from file to file (at most {@link #KEPT_BYTES}). */
    private byte[] spare = new byte[0];

    /** A buffer of the pool's, or a new one; {@link #release} it when done. */
    static Buffer take() {
      Buffer b = POOL.poll();
      if (b == null) {
        return new Buffer();
      }
      POOL_SIZE.decrementAndGet();
      return b;
    }

    /** Gives this buffer back to the pool (kept when the pool has room): no longer used here. */
    void release() {
      bytes = spare;
      length = 0;
      if (POOL_SIZE.incrementAndGet() <= POOLED) {
        POOL.offer(this);
      } else {
        POOL_SIZE.decrementAndGet();
      }
    }

    public byte[] bytes() {
      return bytes;
    }

    public int length() {
      return length;
    }

    void set(byte[] value, int valueLength) {
      bytes = value;
      length = valueLength;
    }

    /**
     * An array of at least {@code size} bytes that is this buffer's (its content not kept, never
     * an array {@link #set} gave): the kept one, a new one at least twice the last up to {@link
     * #KEPT_BYTES} (so a run of ever larger files allocates few), or one of {@code size} bytes
     * for a larger file.
     */
    byte[] room(int size) {
      if (size > KEPT_BYTES) {
        return new byte[size];
      }
      if (spare.length < size) {
        spare = new byte[Math.min(KEPT_BYTES, Math.max(size, 2 * spare.length))];
      }
      return spare;
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
              into.set(buffer, n);
            } else {
              // It grew since the stat: read on, up to the cap.
              ByteArrayOutputStream all = new ByteArrayOutputStream(n + 1024);
              all.write(buffer, 0, n);
              all.write(more);
              all.write(in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxFileBytes - n)));
              byte[] grown = all.toByteArray();
              into.set(grown, grown.length);
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
