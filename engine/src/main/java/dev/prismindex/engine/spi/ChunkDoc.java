package dev.prismindex.engine.spi;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The stored fields of one chunk, as a store gives them back ({@link StoreReader#chunk}): the unit
 * every signal ranks and fusion joins on. Equal when the chunk ids and the repositories are.
 *
 * @param chunkId {@code path#ordinal}, unique per commit
 * @param path repository-relative path of the file
 * @param start 1-based first line
 * @param end 1-based last line
 * @param symbolLines lines of the chunk's definitions, in order
 * @param symbolNames names of the chunk's definitions, in the same order
 * @param language the file's language
 * @param parent the name of the type the chunk's code sits in, null at a file's top level
 * @param repository the repository of the chunk, for a reader of several repositories ({@link
 *     RepositoryGroup}); null for a reader of one
 */
public record ChunkDoc(String chunkId, String path, int start, int end, int[] symbolLines,
    List<String> symbolNames, String language, @Nullable String parent,
    @Nullable String repository) {

  /** A chunk of a reader of one repository. */
  public ChunkDoc(String chunkId, String path, int start, int end, int[] symbolLines,
      List<String> symbolNames, String language, @Nullable String parent) {
    this(chunkId, path, start, end, symbolLines, symbolNames, language, parent, null);
  }

  /** This chunk as a chunk of {@code name}, for a reader that merges several repositories. */
  public ChunkDoc inRepository(@Nullable String name) {
    return new ChunkDoc(chunkId, path, start, end, symbolLines, symbolNames, language, parent,
        name);
  }

  /** The header line of the chunk's main (first) definition, 0 when it has none. */
  public int symbolLine() {
    return symbolLines.length == 0 ? 0 : symbolLines[0];
  }

  /** The ordinal of the chunk within its file (from {@link #chunkId}). */
  public int ordinal() {
    return Integer.parseInt(chunkId.substring(chunkId.lastIndexOf('#') + 1));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChunkDoc c && c.chunkId.equals(chunkId)
        && java.util.Objects.equals(c.repository, repository);
  }

  @Override
  public int hashCode() {
    return chunkId.hashCode() * 31 + java.util.Objects.hashCode(repository);
  }

  @Override
  public String toString() {
    return (repository == null ? "" : repository + ":") + chunkId + " [" + start + ".." + end
        + "] " + symbolNames;
  }
}
