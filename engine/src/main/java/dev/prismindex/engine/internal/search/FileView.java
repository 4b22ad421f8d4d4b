package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.chunk.SourceLines;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.engine.internal.pipeline.Hashing;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.engine.spi.FileEntry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The current content of an indexed file, checked against its manifest entry: stat first (enough
 * when git's racy-timestamp rule proves the file unchanged), else the BLAKE3 hash.
 *
 * @param state whether the file still matches the index
 * @param lines the current lines ({@code null} when gone)
 */
public record FileView(State state, @Nullable List<String> lines) {

  /** How the file relates to its manifest entry. */
  public enum State {
    /** Same content as indexed. */
    FRESH,
    /** Content differs from what was indexed (hits must be re-located). */
    CHANGED,
    /** Deleted, unreadable, no longer a regular file, binary, or over the size cap. */
    GONE
  }

  private static final FileView GONE = new FileView(State.GONE, null);

  /** Reads and checks {@code path} under {@code root}. */
  public static FileView load(Path root, String path, @Nullable FileEntry entry, long maxBytes) {
    Path file = FileNames.resolve(root, path);
    if (file == null) {
      return GONE; // a name this JVM cannot encode: it cannot read the file
    }
    try {
      BasicFileAttributes a =
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!a.isRegularFile() || a.size() > maxBytes) {
        return GONE;
      }
      byte[] bytes;
      try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
        bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxBytes + 1));
      }
      if (bytes.length > maxBytes || FileReader.isBinary(bytes, bytes.length)) {
        return GONE;
      }
      long mtimeNs = a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
      State state;
      if (entry == null) {
        state = State.CHANGED;
      } else if (entry.statProvesUnchanged(a.size(), mtimeNs) && bytes.length == entry.size()) {
        state = State.FRESH;
      } else {
        state = Hashing.blake3(bytes, bytes.length).equals(entry.hash()) ? State.FRESH
            : State.CHANGED;
      }
      return new FileView(state, SourceLines.split(FileReader.decode(bytes, bytes.length)));
    } catch (IOException e) {
      return GONE;
    }
  }
}
