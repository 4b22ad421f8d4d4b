package dev.prismindex.benchmarks;

import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Seed fixture, items (a) and (c): {@code indexed_literal} latency of the seeded queries
 * {@code module-<k>} (1 000 distinct, cycled; default cap of 1 000 hits) and {@code semantic} latency
 * with {@code maxMatches} 100, both through the full composite over 100 000 files loaded through the
 * facade. Sample-time mode reports p50/p90/p95/p99 per benchmark.
 *
 * <p>Command (from the repository root, after {@code mvn -B -ntp -pl benchmarks -am package
 * -DskipTests}):
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar SeedQueryBenchmark -rf json -rff seed-query.json}</pre>
 */
@Warmup(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class SeedQueryBenchmark extends LoadedHarnessState {

  private String[] literalQueries;
  private String[] semanticQueries;
  private int nextLiteral;
  private int nextSemantic;

  @Setup(Level.Trial)
  public void load() {
    SeedFixture fixture = new SeedFixture(SeedFixture.FILES);
    harness = IndexHarness.loaded(fixture, SeedFixture::path, fixture.files());
    literalQueries = fixture.queries(1_000, 42);
    semanticQueries = fixture.semanticQueries(1_000, 43);
    for (String query : literalQueries) {
      String expected = "src/" + query + "/index.ts";
      if (harness.search(query, SearchMode.INDEXED_LITERAL, null).matches().stream()
          .noneMatch(match -> match.path().equals(expected))) {
        throw new IllegalStateException(query + " does not find " + expected);
      }
    }
  }

  /** One seeded {@code module-<k>} query, default cap. */
  @Benchmark
  public RepositorySearchResult indexedLiteral() {
    String query = literalQueries[nextLiteral++ % literalQueries.length];
    return harness.search(query, SearchMode.INDEXED_LITERAL, null);
  }

  /** One seeded {@code module <k> index} semantic query, {@code maxMatches} 100. */
  @Benchmark
  public RepositorySearchResult semantic() {
    String query = semanticQueries[nextSemantic++ % semanticQueries.length];
    return harness.search(query, SearchMode.SEMANTIC, 100);
  }
}
