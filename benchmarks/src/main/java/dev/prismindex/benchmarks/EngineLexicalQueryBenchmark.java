package dev.prismindex.benchmarks;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.index.IndexedRepositoryOperations;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Warm query latency of the lexical engine as a host calls it, over a persisted lexical index
 * opened fresh ({@link EngineFixture}: the generated corpus of {@code files} files, or
 * {@code -p corpus=DIR} for a real repository): {@code lexical} is the engine's code-search port
 * ({@link HybridIndex#search(String, SearchOpts)}, LEXICAL, limit 10); {@code indexedLiteral} is an
 * {@code indexed_literal} search through the seam's composite ({@link IndexedRepositoryOperations}
 * with the engine as backend: status read, freshness gate, deadline thread, hit validation; at most
 * 100 files, case-insensitive). Each call takes the next of 10 queries (one literal matches
 * nothing). Target: p95 <= 5 ms for both.
 *
 * <p>Command (from the repository root, after {@code mvn -B -ntp -pl benchmarks -am package
 * -DskipTests}):
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar EngineLexicalQueryBenchmark -rf json -rff engine-lexical-query.json
 * java -jar benchmarks/target/benchmarks.jar EngineLexicalQueryBenchmark -p corpus=/path/to/spring-framework}</pre>
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EngineLexicalQueryBenchmark extends EngineFixtureState {

  private IndexedRepositoryOperations seam;
  private String[] lexicalQueries;
  private String[] literalQueries;
  private int nextLexical;
  private int nextLiteral;

  @Setup(Level.Trial)
  public void open() throws IOException {
    openFixture();
    seam = IndexHarness.composite(fixture.root, index,
        EnumSet.of(SearchMode.LITERAL, SearchMode.INDEXED_LITERAL));
    lexicalQueries = fixture.lexicalQueries();
    literalQueries = fixture.literalQueries();
    int lexicalHits = 0;
    for (String q : lexicalQueries) {
      lexicalHits += index.search(q, SearchOpts.lexical(10)).isEmpty() ? 0 : 1;
    }
    int literalHits = 0;
    for (String q : literalQueries) {
      literalHits += literal(q).matches().isEmpty() ? 0 : 1;
    }
    if (lexicalHits < lexicalQueries.length / 2 || literalHits < literalQueries.length / 2) {
      throw new IllegalStateException("too few queries find anything in " + fixture.name
          + ": lexical " + lexicalHits + ", literal " + literalHits);
    }
    System.out.printf("%d of %d lexical and %d of %d literal queries have hits%n", lexicalHits,
        lexicalQueries.length, literalHits, literalQueries.length);
  }

  /** Re-attests freshness (a no-change refresh) so the seam's stale window never refuses. */
  @Setup(Level.Iteration)
  public void attest() throws IOException {
    index.refresh(RefreshOptions.INCREMENTAL);
  }

  @TearDown(Level.Trial)
  public void closeSeam() {
    seam.index().dispose();
  }

  private RepositorySearchResult literal(String q) {
    return seam.search(RepositorySearchRequest.builder(fixture.root, q)
        .mode(SearchMode.INDEXED_LITERAL).maxMatches(100).build());
  }

  @Benchmark
  public List<Hit> lexical() throws IOException {
    nextLexical = (nextLexical + 1) % lexicalQueries.length;
    return index.search(lexicalQueries[nextLexical], SearchOpts.lexical(10));
  }

  @Benchmark
  public RepositorySearchResult indexedLiteral() {
    nextLiteral = (nextLiteral + 1) % literalQueries.length;
    return literal(literalQueries[nextLiteral]);
  }
}
