package dev.prismindex.benchmarks;

import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The realistic fixture ({@link RealisticFixture}: 100 000 files of 1 to 4 KB of code-like text):
 * {@code indexed_literal} and {@code semantic} latency over 1 000 seeded queries, through the full
 * composite ({@code maxMatches} 100, what an agent asks for). Build time and heap per source byte are
 * measured by {@link RealisticBuildBenchmark} and {@link BudgetCheck} ({@code --full}).
 *
 * <p>Command:
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar RealisticBenchmark -rf json -rff realistic.json}</pre>
 */
@Warmup(iterations = 2, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
public class RealisticBenchmark extends LoadedHarnessState {

  private String[] queries;
  private int nextLiteral;
  private int nextSemantic;

  @Setup(Level.Trial)
  public void load() {
    RealisticFixture fixture = new RealisticFixture(RealisticFixture.FILES);
    harness = IndexHarness.loaded(fixture, RealisticFixture::path, fixture.files());
    queries = RealisticFixture.queries(1_000, 44);
  }

  @Benchmark
  public RepositorySearchResult indexedLiteral() {
    return harness.search(queries[nextLiteral++ % queries.length], SearchMode.INDEXED_LITERAL, 100);
  }

  @Benchmark
  public RepositorySearchResult semantic() {
    return harness.search(queries[nextSemantic++ % queries.length], SearchMode.SEMANTIC, 100);
  }
}
