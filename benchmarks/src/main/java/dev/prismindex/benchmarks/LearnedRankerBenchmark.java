package dev.prismindex.benchmarks;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.query.LearnedRanker;
import dev.prismindex.engine.internal.query.RankFeatures;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The learned ranker's cost per candidate ({@code Fusion.learned()}): what a hybrid search does
 * with it, for one query's candidates, timed per candidate. {@code rank}: the features of every
 * candidate ({@code RankFeatures.of}: reciprocal ranks, BM25 parts, cosines, the definition's kind,
 * name terms, file coherence, length) and the model's order ({@code LearnedRanker.rank}); {@code
 * score}: the linear model alone. The candidates are those of a limit-10 hybrid search: 50
 * lexical and 50 semantic (the search depth), 20 of them in both lists, so 80 distinct, of chunks
 * with a definition in 16 files; the query is prose (so the model's prose features are set). The
 * chunks' stored fields are given, not read (the search reads them for the hits in any case).
 *
 * <pre>{@code java -Djmh.ignoreLock=true -jar benchmarks/target/benchmarks.jar LearnedRankerBenchmark}</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LearnedRankerBenchmark {

  static final int DEPTH = 50;
  static final int SHARED = 20;
  static final int CANDIDATES = 2 * DEPTH - SHARED;

  private static final String QUERY = "parse the request body into a json object";
  private static final String[] NAMES = {"parseRequestBody", "JsonObjectReader", "readObject",
      "RequestBodyAdvice", "toJson", "BodyParser", "parse", "ObjectMapperFactory"};

  private final CodeAnalyzer analyzer = new CodeAnalyzer();
  private final LearnedRanker ranker = LearnedRanker.shipped();
  private Set<String> terms;
  private List<Candidate> lexical;
  private List<Candidate> semantic;
  private ChunkDoc[] chunks;
  private List<RankFeatures.Row> rows;

  @Setup
  public void setUp() throws IOException {
    Random random = new Random(38);
    terms = analyzer.terms(QUERY, LexicalSearcher.MAX_TERMS);
    chunks = new ChunkDoc[CANDIDATES];
    for (int doc = 0; doc < CANDIDATES; doc++) {
      String name = NAMES[random.nextInt(NAMES.length)];
      int start = 1 + random.nextInt(400);
      chunks[doc] = new ChunkDoc("c" + doc, "src/main/java/org/example/web/File"
          + random.nextInt(16) + ".java", start, start + 3 + random.nextInt(60),
          new int[] {start + 1}, List.of(name), "java",
          random.nextBoolean() ? "File" : null);
    }
    lexical = new ArrayList<>();
    for (int r = 1; r <= DEPTH; r++) {
      double[] parts = new double[LexicalSearcher.PARTS];
      for (int p = 0; p < parts.length; p++) {
        parts[p] = random.nextDouble() * 10 / r;
      }
      double sum = parts[0] + parts[1] + parts[2] + parts[3];
      lexical.add(new Candidate(r - 1, r, sum, parts));
    }
    semantic = new ArrayList<>();
    for (int r = 1; r <= DEPTH; r++) {
      // the first SHARED semantic candidates are lexical ones too, the rest only semantic
      int doc = r <= SHARED ? 2 * (r - 1) : DEPTH + (r - SHARED - 1);
      semantic.add(new Candidate(doc, r, 0.8 - 0.01 * r));
    }
    rows = rows();
    if (rows.size() != CANDIDATES) {
      throw new IllegalStateException(rows.size() + " candidates, expected " + CANDIDATES);
    }
  }

  private List<RankFeatures.Row> rows() throws IOException {
    return RankFeatures.of(QUERY, terms, lexical, semantic, DEPTH, doc -> chunks[doc], analyzer, 1);
  }

  /** Features and order of one search's candidates, per candidate. */
  @Benchmark
  @OperationsPerInvocation(CANDIDATES)
  public Object rank() throws IOException {
    return ranker.rank(rows());
  }

  /** The linear model alone, per candidate. */
  @Benchmark
  @OperationsPerInvocation(CANDIDATES)
  public double score() {
    double s = 0;
    for (RankFeatures.Row r : rows) {
      s += ranker.linear(r.features());
    }
    return s;
  }
}
