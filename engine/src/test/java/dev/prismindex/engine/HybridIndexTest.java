package dev.prismindex.engine;

import dev.prismindex.repository.SearchMode;
import static dev.prismindex.engine.IndexInternals.literalSearch;
import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.internal.search.LiteralMatch;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.repository.AbortSignal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HybridIndexTest {

  @TempDir Path root;

  private static final String DURATION = """
      package demo;

      /** Parses durations. */
      public final class Durations {
        private Durations() {}

        /** Parses strings like 5s or 2m. */
        public static long parseDurationString(String text) {
          String t = text.trim();
          if (t.endsWith("s")) {
            return Long.parseLong(t.substring(0, t.length() - 1)) * 1000;
          }
          return Long.parseLong(t.substring(0, t.length() - 1)) * 60000;
        }
      }
      """;

  private static final String CALLER = """
      package demo;

      public final class Config {
        long timeout(String raw) {
          // parse the duration string from config
          long parsed = Durations.parseDurationString(raw);
          return parsed;
        }
        long retry(String raw) {
          return Durations.parseDurationString(raw) / 2;
        }
      }
      """;

  @Test
  void createsHomeWithGitignoreAndStartsEmpty() throws Exception {
    try (HybridIndex index = TestRepos.open(root)) {
      assertThat(root.resolve(".prism-index/.gitignore")).hasContent("*");
      assertThat(index.status().state()).isEqualTo(IndexState.EMPTY);
      assertThat(index.engineStatus().hasCommit()).isFalse();
      assertThat(index.search("anything", SearchOpts.lexical(5))).isEmpty();
    }
  }

  @Test
  void emptyRepositoryCommitsOnceAndIsReady() throws Exception {
    try (HybridIndex index = TestRepos.open(root)) {
      IndexRunStats first = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(first.committed()).isTrue();
      assertThat(first.filesSeen()).isZero();
      IndexStatus status = index.status();
      assertThat(status.state()).isEqualTo(IndexState.READY);
      assertThat(status.sourceRevision()).startsWith("manifest:");
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).committed()).isFalse();
      assertThat(index.engineStatus().files()).isZero();
    }
  }

  @Test
  void identifierQueriesRankTheDefinitionFirst() throws Exception {
    write(root, "src/demo/Durations.java", DURATION);
    write(root, "src/demo/Config.java", CALLER);
    write(root, "docs/notes.md", "We parse the duration string in Config.\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (String q : List.of("parseDurationString", "parse duration string",
          "parse_duration_string")) {
        List<Hit> hits = index.search(q, SearchOpts.lexical(5));
        assertThat(hits).as(q).isNotEmpty();
        Hit top = hits.get(0);
        assertThat(top.path()).as(q).isEqualTo("src/demo/Durations.java");
        assertThat(top.symbol()).as(q).isEqualTo("parseDurationString");
        assertThat(top.line()).as(q).isEqualTo(8);
        assertThat(top.snippet()).as(q).contains("parseDurationString(String text)");
        assertThat(top.score()).isEqualTo(1.0);
        assertThat(top.lexical()).isNotNull();
        assertThat(top.semantic()).isNull();
        assertThat(hits).allSatisfy(h -> {
          assertThat(h.score()).isBetween(0.0, 1.0);
          assertThat(h.snippet()).isNotBlank();
          assertThat(h.line()).isBetween(1, h.endLine());
        });
      }
    }
  }

  @Test
  void hostileQueriesNeverThrow() throws Exception {
    write(root, "a.py", "def foo(bar):\n    return bar * 2\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      String big = "x(".repeat(5_000);
      for (String q : List.of("foo(bar", "\"", "*", ":", "\\", "((((", "]]", "{", "a:b OR c~2^3",
          "\u0000\u0001\u001f", "\ud800", "", "   ", big, "foo AND", "-", "+foo -bar", "/re/")) {
        List<Hit> hits = index.search(q, SearchOpts.lexical(10));
        assertThat(hits).isNotNull();
        if (q.length() <= 4096) {
          assertThat(literalSearch(index, q, false, null, 10, false,
              dev.prismindex.repository.AbortSignal.create()).matches()).isNotNull();
        } else {
          assertThatThrownBy(() -> literalSearch(index, q, false, null, 10, false,
              dev.prismindex.repository.AbortSignal.create()))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("byte pattern limit");
        }
      }
      assertThat(index.search("foo(bar", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactly("a.py");
    }
  }

  @Test
  void semanticAndHybridFailClearlyWhenSemanticSearchIsOff() throws Exception {
    write(root, "a.txt", "needle\n");
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).semantic(false).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (SearchMode mode : List.of(SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        assertThatThrownBy(() -> index.search("x",
            SearchOpts.builder().mode(mode).build()))
            .isInstanceOfSatisfying(SemanticSearchUnavailableException.class, e ->
                assertThat(e.state())
                    .isEqualTo(SemanticState.DISABLED))
            .hasMessageStartingWith("embedding model unavailable: semantic search is disabled");
      }
      assertThat(index.capabilities().semantic()).isFalse();
      assertThat(index.engineStatus().semantic()).isEqualTo(SemanticState.DISABLED);
      assertThat(index.search("needle", SearchOpts.lexical(5))).hasSize(1);
    }
  }

  @Test
  void pathScopeFiltersHits() throws Exception {
    write(root, "a/x.txt", "needle here\n");
    write(root, "ab/y.txt", "needle there\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.search("needle", SearchOpts.builder().pathScope("./a/").build()))
          .extracting(Hit::path).containsExactly("a/x.txt");
      assertThat(index.search("needle", SearchOpts.lexical(10))).hasSize(2);
    }
  }

  @Test
  void crlfAndNonUtf8FilesAreIndexed() throws Exception {
    write(root, "crlf.txt", "first line\r\nsecond needle line\r\nthird\r\n");
    TestRepos.writeBytes(root, "latin1.txt",
        "caf\u00e9 needle\n".getBytes(StandardCharsets.ISO_8859_1));
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      List<Hit> hits = index.search("needle", SearchOpts.lexical(10));
      assertThat(hits).extracting(Hit::path).containsExactlyInAnyOrder("crlf.txt", "latin1.txt");
      Hit crlf = hits.stream().filter(h -> h.path().equals("crlf.txt")).findFirst().orElseThrow();
      assertThat(crlf.line()).isEqualTo(2);
      assertThat(crlf.snippet()).isEqualTo("second needle line");
    }
  }

  @Test
  void hugeAndBinaryFilesAreSkippedLockAndMinifiedFilesAreLiteralOnly() throws Exception {
    // Over the exact-search cap (8 MiB): a file of 1-8 MiB is literal-only (LargeFileLiteralOnlyTest).
    write(root, "big.txt", "needle\n" + "y".repeat(9 * 1024 * 1024));
    byte[] bin = "needle\0binary".getBytes(StandardCharsets.UTF_8);
    TestRepos.writeBytes(root, "bin.dat", bin);
    write(root, "ok.txt", "needle\n");
    write(root, "package-lock.json", "{\"needle\": 1}\n");
    write(root, ".env", "NEEDLE=secret\n");
    write(root, "node_modules/x/index.js", "needle\n");
    write(root, "app.min.js", "needle\n");
    write(root, "bundle.js", "var needle=1;" + "x=1;".repeat(40_000));
    try (HybridIndex index = TestRepos.open(root)) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.skipped()).containsOnly(Map.entry(SkipReason.OVERSIZE, 1),
          Map.entry(SkipReason.BINARY, 1), Map.entry(SkipReason.SECRET, 1));
      assertThat(index.search("needle", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactly("ok.txt");
      // Lock files and minified files are searched by literal search only.
      LiteralResult literal = literalSearch(index, "needle", false, null, 10, true,
          AbortSignal.create());
      assertThat(literal.matches()).extracting(LiteralMatch::path)
          .containsExactly("app.min.js", "bundle.js", "ok.txt", "package-lock.json");
      assertThat(literal.notSearched())
          .containsExactly(Map.entry("binary", 1), Map.entry("oversize", 1),
              Map.entry("secret", 1));
      assertThat(manifest(index).get("package-lock.json").chunks()).isZero();
      assertThat(index.staleness().added()).isZero();
      // A new binary file changes no document, but the run records the new count.
      TestRepos.writeBytes(root, "bin2.dat", bin);
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).committed()).isTrue();
      assertThat(literalSearch(index, "needle", false, null, 10, true, AbortSignal.create())
          .notSearched()).containsEntry("binary", 2);
    }
  }

  @Test
  void secretsCanBeIndexedWhenConfigured() throws Exception {
    write(root, ".env", "NEEDLE=secret\n");
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).indexSecrets(true).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.search("needle", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactly(".env");
    }
  }

  @Test
  void includeAndExcludeGlobs() throws Exception {
    write(root, "src/A.java", "class A { int needle; }\n");
    write(root, "Top.java", "class Top { int needle; }\n");
    write(root, "src/gen/B.java", "class B { int needle; }\n");
    write(root, "README.md", "needle\n");
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root)
        .include(List.of("**/*.java")).exclude(List.of("src/gen/**")).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.search("needle", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactlyInAnyOrder("src/A.java", "Top.java");
    }
  }

  @Test
  void secondOpenSharesCommittedDataAcrossInstances() throws Exception {
    write(root, "a.txt", "persistent needle\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
    try (HybridIndex again = TestRepos.open(root)) {
      assertThat(again.status().state()).isEqualTo(IndexState.READY);
      assertThat(again.search("needle", SearchOpts.lexical(3))).hasSize(1);
      assertThat(again.refresh(RefreshOptions.INCREMENTAL).committed()).isFalse();
    }
  }

  @Test
  void indexHomeOverrideOutsideTheRepository(@TempDir Path elsewhere) throws Exception {
    write(root, "a.txt", "needle\n");
    Path home = elsewhere.resolve("idx");
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).home(home).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(Files.exists(home.resolve("lucene"))).isTrue();
      assertThat(Files.exists(root.resolve(".prism-index"))).isFalse();
      assertThat(index.engineStatus().sizeOnDiskBytes()).isPositive();
    }
  }
}
