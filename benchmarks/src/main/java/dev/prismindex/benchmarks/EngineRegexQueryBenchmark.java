package dev.prismindex.benchmarks;

import dev.prismindex.engine.ExactScan;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Warm latency of regex search, every match of a pattern streamed as the CLI asks for it
 * ({@link SearchMode#REGEX}, no limit, case-sensitive unless the pattern says {@code (?i)}), over
 * the corpus of the lexical benchmarks ({@link EngineFixture}: the generated corpus of
 * {@code files} files, or {@code -p corpus=DIR} for a real Java repository): {@code indexed} plans
 * the pattern over the persisted index's trigrams and verifies the candidates
 * ({@link HybridIndex#stream}); {@code scanned} answers it without an index, from core's scanner
 * ({@link ExactScan#stream}). Each call takes the next pattern of the corpus's list: selective
 * literals inside a regex, an alternation, a case-insensitive one, one with no trigram to require
 * (every file read) and one that matches nothing. Setup prints, per pattern, its hits and whether
 * it read every file.
 *
 * <p>Command (from the repository root, after {@code mvn -B -ntp -pl benchmarks -am package
 * -DskipTests}):
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar EngineRegexQueryBenchmark -rf json -rff engine-regex-query.json
 * java -jar benchmarks/target/benchmarks.jar EngineRegexQueryBenchmark.indexed -p corpus=/path/to/spring-framework}</pre>
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class EngineRegexQueryBenchmark extends EngineFixtureState {

  /** Patterns of the generated corpus ({@link EngineCorpus}'s vocabulary). */
  static final String[] GENERATED = {"class WidgetCache\\d+ ", "decodeBuffer\\w+\\(",
      "Widget(Cache|Queue)\\d+\\b", "(?i)paymentsession", "\\d{3,}", "zzz\\w*-not-there"};
  /** Patterns of a real Java repository. */
  static final String[] REAL = {"new \\w+Exception\\(\"", "IllegalStateException|TODO",
      "(?i)illegalargumentexception", "public static <T> \\w+", "\\d{4,}", "zzz\\w*-not-there"};

  private String[] patterns;
  private int next;
  private final SearchOpts opts =
      SearchOpts.builder().mode(SearchMode.REGEX).limit(SearchOpts.UNLIMITED)
          .caseSensitive(true).build();

  @Setup(Level.Trial)
  public void open() throws IOException {
    openFixture();
    patterns = fixture.generated ? GENERATED : REAL;
    int withHits = 0;
    for (String p : patterns) {
      int[] hits = {0};
      SearchResult r = index.stream(p, opts, h -> hits[0]++);
      withHits += hits[0] > 0 ? 1 : 0;
      System.out.printf("%-40s %7d lines%s%n", p, hits[0],
          r.everyFileRead() ? " (no trigram: every file read)" : "");
    }
    if (withHits < patterns.length / 2) {
      throw new IllegalStateException("too few patterns find anything in " + fixture.name);
    }
  }

  /** Re-attests freshness (a no-change refresh), as a served search's watch keeps it. */
  @Setup(Level.Iteration)
  public void attest() throws IOException {
    index.refresh(RefreshOptions.INCREMENTAL);
  }

  @Benchmark
  public SearchResult indexed(Blackhole hits) throws IOException {
    next = (next + 1) % patterns.length;
    return index.stream(patterns[next], opts, hits::consume);
  }

  @Benchmark
  public ExactScan.Result scanned(Blackhole hits) {
    next = (next + 1) % patterns.length;
    return ExactScan.stream(fixture.root, patterns[next], opts, hits::consume);
  }
}
