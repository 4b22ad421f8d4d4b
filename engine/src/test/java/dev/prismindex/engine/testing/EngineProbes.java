package dev.prismindex.engine.testing;

import dev.prismindex.engine.CodeSearch;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.chunk.EmbedText;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.engine.internal.pipeline.Hashing;
import dev.prismindex.engine.internal.query.LearnedRanker;
import dev.prismindex.engine.internal.query.RankFeatures;
import dev.prismindex.engine.internal.query.RankedSearch;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.Languages;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The engine's parts that the benchmarks measure on their own: its BLAKE3 (native or
 * commons-codec), its language detection, its chunker and its secret detection. A test fixture (the engine's test jar),
 * so that no module outside the engine imports {@code dev.prismindex.engine.internal}; not an API.
 */
public final class EngineProbes {

  private EngineProbes() {}

  /** The engine's BLAKE3-256 of {@code data}: natively where the library is loaded. */
  public static byte[] blake3(byte[] data) {
    return Hashing.digest(data, data.length);
  }

  /** The language the engine detects for {@code path} (by its name). */
  public static String language(String path) {
    return Languages.detect(path);
  }

  /** Whether tree-sitter chunks {@code language} (else line windows do). */
  public static boolean chunkable(String language) {
    return Chunker.supports(language);
  }

  /** What the engine gives the embedder for {@code chunk} of the file at {@code path}. */
  public static String embedText(String path, Chunk chunk) {
    return EmbedText.of(path, chunk);
  }

  /** Whether the engine takes the first {@code length} bytes of a file for binary. */
  public static boolean binary(byte[] bytes, int length) {
    return FileReader.isBinary(bytes, length);
  }

  /** The first {@code length} bytes of a file as the engine decodes them. */
  public static String decode(byte[] bytes, int length) {
    return FileReader.decode(bytes, length);
  }

  /**
   * One HYBRID candidate as the learned ranker sees it.
   *
   * @param chunkId the chunk's id ({@code path#ordinal})
   * @param path the chunk's file
   * @param start its first line
   * @param end its last line
   * @param symbolLine the header line of its definition (0: none)
   * @param symbolName the definition's name (null: none)
   * @param features the ranker's features ({@link #rankerFeatures()})
   */
  public record RankerCandidate(String chunkId, String path, int start, int end, int symbolLine,
      @Nullable String symbolName, double[] features) {}

  /** The learned ranker's feature names, in order. */
  public static List<String> rankerFeatures() {
    return RankFeatures.NAMES;
  }

  /**
   * One regression tree of a learned ranker: {@code depth} levels of splits stored level by level
   * (node {@code i}'s children {@code 2i + 1} and {@code 2i + 2}; right when the candidate's
   * feature {@code feature[i]} exceeds {@code threshold[i]}, feature -1 sends every candidate
   * left), then {@code 2^depth} leaves added to the score.
   */
  public record RankerTree(int depth, int[] feature, double[] threshold, double[] leaf) {}

  /** A learned ranker as the engine scores candidates with it. */
  public interface RankerModel {
    /** Its score of one candidate's features (before the logistic function). */
    double score(double[] features);

    /** The text of its weights resource ({@code ranker.tsv}) after the comment lines {@code header}. */
    String format(String header);
  }

  /**
   * The learned ranker of {@code weights} (one per {@link #rankerFeatures()}) and {@code trees},
   * checked as the engine checks its resource.
   */
  public static RankerModel rankerModel(String version, double bias, double[] weights,
      List<RankerTree> trees) {
    LearnedRanker r = new LearnedRanker(version, bias, weights, trees.stream()
        .map(t -> new LearnedRanker.Tree(t.depth(), t.feature(), t.threshold(), t.leaf()))
        .toList());
    return new RankerModel() {
      @Override
      public double score(double[] features) {
        return r.score(features);
      }

      @Override
      public String format(String header) {
        return r.format(header);
      }
    };
  }

  /** The shipped ranker's version. */
  public static String rankerVersion() {
    return LearnedRanker.shipped().version();
  }

  /**
   * The candidates of a HYBRID search of {@code query} ordered by the learned ranker ({@link
   * Fusion#learned()}) with their features, as the engine collects them before ranking: the union
   * of both engines' candidates at the depth of {@code limit}.
   */
  public static List<RankerCandidate> rankerCandidates(CodeSearch index, String query, int limit)
      throws IOException {
    List<RankerCandidate> out = new ArrayList<>();
    RankedSearch.TRACE.set(rows -> {
      for (RankFeatures.Row r : rows) {
        ChunkDoc c = r.chunk();
        out.add(new RankerCandidate(c.chunkId(), c.path(), c.start(), c.end(), c.symbolLine(),
            c.symbolNames().isEmpty() ? null : c.symbolNames().get(0), r.features()));
      }
    });
    try {
      index.search(query, SearchOpts.builder().mode(SearchMode.HYBRID).limit(limit)
          .fusion(Fusion.learned()).build());
    } finally {
      RankedSearch.TRACE.remove();
    }
    return out;
  }

  /**
   * What the engine's content rules find in the first {@code length} bytes of a file (a
   * private-key header or a secret of a well-known format), or null: why it would skip the file as
   * {@code private_key} or {@code secret} whatever its name.
   */
  public static @Nullable String secretIn(byte[] bytes, int length) {
    return FileRules.secretIn(bytes, length);
  }

  /** A chunker with its own parsers; close it. */
  public static Chunking chunking() {
    return new Chunking(new Chunker());
  }

  /** The engine's chunker, as a run uses it. */
  public static final class Chunking implements AutoCloseable {
    private final Chunker chunker;

    private Chunking(Chunker chunker) {
      this.chunker = chunker;
    }

    /** The chunks of {@code text}, a file of {@code language}. */
    public List<Chunk> chunk(String text, String language) {
      return chunker.chunk(text, language);
    }

    @Override
    public void close() {
      chunker.close();
    }
  }
}
