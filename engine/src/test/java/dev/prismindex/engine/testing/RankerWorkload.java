package dev.prismindex.engine.testing;

import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.query.LearnedRanker;
import dev.prismindex.engine.internal.query.RankFeatures;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One hybrid search's candidates for the learned ranker ({@code Fusion.learned()}), as a search
 * hands them over: {@code depth} lexical (with their four BM25 parts) and {@code depth} semantic,
 * {@code shared} of them in both lists, of Java chunks with a definition in 16 files, for a prose
 * query; the chunks' stored fields given, not read. For {@code LearnedRankerBenchmark}; a test
 * fixture (the engine's test jar), not an API.
 */
public final class RankerWorkload {

  private static final String QUERY = "parse the request body into a json object";
  private static final String[] NAMES = {"parseRequestBody", "JsonObjectReader", "readObject",
      "RequestBodyAdvice", "toJson", "BodyParser", "parse", "ObjectMapperFactory"};

  private final CodeAnalyzer analyzer = new CodeAnalyzer();
  private final LearnedRanker ranker = LearnedRanker.shipped();
  private final int depth;
  private final Set<String> terms;
  private final List<Candidate> lexical = new ArrayList<>();
  private final List<Candidate> semantic = new ArrayList<>();
  private final ChunkDoc[] chunks;
  private final List<RankFeatures.Row> rows;

  /** The candidates of a search of the given depth, {@code shared} of them in both lists. */
  public RankerWorkload(int depth, int shared, long seed) throws IOException {
    Random random = new Random(seed);
    this.depth = depth;
    terms = analyzer.terms(QUERY, LexicalSearcher.MAX_TERMS);
    chunks = new ChunkDoc[2 * depth - shared];
    for (int doc = 0; doc < chunks.length; doc++) {
      int start = 1 + random.nextInt(400);
      chunks[doc] = new ChunkDoc("c" + doc, "src/main/java/org/example/web/File"
          + random.nextInt(16) + ".java", start, start + 3 + random.nextInt(60),
          new int[] {start + 1}, List.of(NAMES[random.nextInt(NAMES.length)]), "java",
          random.nextBoolean() ? "File" : null);
    }
    for (int r = 1; r <= depth; r++) {
      double[] parts = new double[LexicalSearcher.PARTS];
      double sum = 0;
      for (int p = 0; p < parts.length; p++) {
        parts[p] = random.nextDouble() * 10 / r;
        sum += parts[p];
      }
      lexical.add(new Candidate(r - 1, r, sum, parts));
      // the first `shared` semantic candidates are lexical ones too (every other), the rest not
      int doc = r <= shared ? 2 * (r - 1) : depth + (r - shared - 1);
      semantic.add(new Candidate(doc, r, 0.8 - 0.01 * r));
    }
    rows = rows();
    if (rows.size() != chunks.length) {
      throw new IllegalStateException(rows.size() + " candidates, expected " + chunks.length);
    }
  }

  /** The number of distinct candidates. */
  public int candidates() {
    return chunks.length;
  }

  private List<RankFeatures.Row> rows() throws IOException {
    return RankFeatures.of(QUERY, terms, lexical, semantic, depth, doc -> chunks[doc], analyzer, 1,
        new RankFeatures.Hand(HybridFuser.fuse(lexical, semantic, Fusion.rrf(), depth), -1,
            Map.of(), doc -> null));
  }

  /** The features of every candidate and the model's order of them, as a hybrid search does. */
  public Object rank() throws IOException {
    return ranker.rank(rows());
  }

  /** The model's score of every candidate (features computed once), summed. */
  public double score() {
    double s = 0;
    for (RankFeatures.Row r : rows) {
      s += ranker.score(r.features());
    }
    return s;
  }
}
