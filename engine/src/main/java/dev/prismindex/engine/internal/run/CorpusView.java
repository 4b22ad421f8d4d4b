package dev.prismindex.engine.internal.run;

import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.chunk.EmbedText;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.Languages;
import dev.prismindex.engine.internal.walk.RepoWalker;
import dev.prismindex.engine.spi.Chunk;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A repository as a run would see it, without an index: the paths its walk lists and the chunk
 * texts its indexer would hand to the embedding phase (for benchmarks measuring the parts).
 */
public final class CorpusView {

  private CorpusView() {}

  /** The paths the walk of a refresh lists (rules by name and place applied), in walk order. */
  public static List<String> paths(HybridIndexOptions options) throws IOException {
    return new RepoWalker(options.root(), options.home(), FileRules.of(options)).walk().paths();
  }

  /**
   * The distinct texts embedded for the chunks of the walked files ({@link EmbedText}), in walk
   * order, at most {@code limit}: the files the indexer would chunk (not oversize, binary, secret, lock or minified), cut as it cuts them.
   */
  public static List<String> chunkTexts(HybridIndexOptions options, int limit)
      throws IOException {
    FileRules rules = FileRules.of(options);
    Set<String> texts = new LinkedHashSet<>();
    try (Chunker chunker = new Chunker()) {
      for (String p : new RepoWalker(options.root(), options.home(), rules).walk().paths()) {
        String text = readChunkable(options, rules, p);
        if (text == null) {
          continue;
        }
        for (Chunk c : chunker.chunk(text, Languages.detect(p))) {
          texts.add(EmbedText.of(p, c));
          if (texts.size() >= limit) {
            return new ArrayList<>(texts);
          }
        }
      }
    }
    return new ArrayList<>(texts);
  }

  private static @Nullable String readChunkable(
      HybridIndexOptions options, FileRules rules, String path) throws IOException {
    Path file = FileNames.resolve(options.root(), path);
    if (file == null) {
      return null; // a name this JVM cannot encode: it cannot read the file
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, options.maxFileBytes() + 1));
    } catch (NoSuchFileException e) {
      return null;
    }
    if (bytes.length > options.maxFileBytes() || FileReader.isBinary(bytes, bytes.length)
        || rules.skipByContent(path, bytes, bytes.length) != null
        || FileRules.literalOnly(rules.skipByName(path))) {
      return null;
    }
    String text = FileReader.decode(bytes, bytes.length);
    return FileReader.looksMinified(text) ? null : text;
  }
}
