package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.literalSearch;
import static dev.prismindex.engine.IndexInternals.manifest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.search.LiteralMatch;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.search.LiteralSearcher;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code indexed_literal} answers equal core's literal scanner ({@code RepositoryOperations.local},
 * large limits) on seeded random trees: every content match, in order, with line and column. The
 * seed is printed in every assertion message; rerun with {@code -Dprism.seed=<seed>}.
 */
class LiteralEquivalenceTest {

  private static final String[] WORDS = {"alpha", "Beta", "GAMMA", "parseDuration", "snake_case",
      "x", "ab", "é", "straße", "İstanbul", "ΣΊΣΥΦΟΣ", "😀", "foo(bar", "\"q\"", "*", ":", "\\",
      "tab\there", "a.b", "[x]", "  ", "ﬁ", "K", "k", "import", "    return", "toString",
      "Implementation", "the"};

  @TempDir Path root;

  record M(String path, int line, int column) {}

  @Test
  void indexedLiteralEqualsTheScannerOnRandomTrees() throws Exception {
    long seed = Long.getLong("prism.seed", System.nanoTime());
    Random random = new Random(seed);
    for (int round = 0; round < 3; round++) {
      Path tree = root.resolve("round" + round);
      try (HybridIndex index = RandomTrees.indexed(tree, root.resolve("home" + round), random,
          WORDS, "")) {
        Set<String> indexed = manifest(index).keySet();
        List<String> queries = queries(tree, indexed, random);
        RepositoryOperations scanner = RepositoryOperations.local(RepositoryLimits.builder()
            .maxMatches(10_000).maxFiles(100_000).maxEntries(100_000).build());
        for (String q : queries) {
          for (boolean cs : new boolean[] {false, true}) {
            String msg = "seed " + seed + " round " + round + " query [" + q + "] caseSensitive "
                + cs;
            LiteralResult got = literalSearch(index, q, cs, null, 10_000, false,
                AbortSignal.create());
            List<M> engine = got.matches().stream().filter(m -> !m.pathOnly())
                .map(m -> new M(m.path(), m.line(), m.column())).toList();
            {
              RepositorySearchResult r = scanner.search(RepositorySearchRequest.builder(tree, q)
                  .caseSensitive(cs).maxMatches(10_000).context(0).build());
              List<M> real = new ArrayList<>();
              for (RepositorySearchMatch m : r.matches()) {
                if (indexed.contains(m.path())) {
                  real.add(new M(m.path(), m.line(), m.column()));
                }
              }
              assertThat(engine).as(msg + " (core scanner)").isEqualTo(real);
            }
            // The seam serves the first match of each file, capped, with a truncation flag.
            LiteralResult firstPerFile = literalSearch(index, q, cs, null, 3, true,
                AbortSignal.create());
            List<String> files = got.matches().stream().map(LiteralMatch::path).distinct()
                .toList();
            assertThat(firstPerFile.matches()).as(msg).extracting(LiteralMatch::path)
                .isEqualTo(files.subList(0, Math.min(3, files.size())));
            assertThat(firstPerFile.truncated()).as(msg).isEqualTo(files.size() > 3);
          }
        }
      }
    }
  }

  @Test
  void pathMatchesAreReportedAtLineOne() throws Exception {
    TestRepos.write(root, "src/NeedleFinder.java", "class X {}\n");
    TestRepos.write(root, "src/empty.txt", "");
    TestRepos.write(root, "docs/needle-notes.md", "\nsecond\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      LiteralResult r = literalSearch(index, "needle", false, null, 10, true, AbortSignal.create());
      assertThat(r.matches()).containsExactly(
          new LiteralMatch("docs/needle-notes.md", 1, 0, "docs/needle-notes.md"),
          new LiteralMatch("src/NeedleFinder.java", 1, 0, "class X {}"));
      assertThat(literalSearch(index, "needle", true, null, 10, true, AbortSignal.create())
          .matches()).extracting(LiteralMatch::path).containsExactly("docs/needle-notes.md");
      assertThat(literalSearch(index, "e", false, "src", 10, true, AbortSignal.create())
          .matches()).extracting(LiteralMatch::path)
          .containsExactly("src/NeedleFinder.java", "src/empty.txt");
    }
  }

  @Test
  void aTermDeepInsideA144KilobyteLineAndInALockFileIsFound() throws Exception {
    String line = "<td>" + "report cell ".repeat(12_000) + "UniqueTermDeepInside" + " tail";
    TestRepos.write(root, "report.html", line);
    TestRepos.write(root, "pnpm-lock.yaml", "lockfileVersion: '9.0'\n  /left-pad@1.3.0:\n"
        + "    resolution: {integrity: sha512-LockOnlyTerm}\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      int column = line.indexOf("UniqueTermDeepInside") + 1;
      LiteralResult r = literalSearch(index, "uniquetermdeepinside", false, null, 10, false,
          AbortSignal.create());
      assertThat(r.matches()).hasSize(1);
      LiteralMatch m = r.matches().get(0);
      assertThat(m.path()).isEqualTo("report.html");
      assertThat(m.line()).isEqualTo(1);
      assertThat(m.column()).isEqualTo(column);
      assertThat(m.text().getBytes(StandardCharsets.UTF_8).length)
          .isLessThanOrEqualTo(LiteralSearcher.MAX_TEXT_BYTES);
      assertThat(m.text().substring(column - 1 - m.textStart()))
          .startsWith("UniqueTermDeepInside");
      assertThat(r.notSearched()).isEmpty();
      assertThat(literalSearch(index, "LockOnlyTerm", true, null, 10, false, AbortSignal.create())
          .matches()).containsExactly(new LiteralMatch("pnpm-lock.yaml", 3, 36,
              "    resolution: {integrity: sha512-LockOnlyTerm}"));

      // The seam's indexed_literal serves both, with bounded snippets holding the match.
      IndexQueryResult seam = index.search(new IndexQuery("uniquetermdeepinside",
          SearchMode.INDEXED_LITERAL, null, 10, false, AbortSignal.create(), 10_000));
      assertThat(seam.hits()).singleElement().satisfies(h -> {
        assertThat(h.path()).isEqualTo("report.html");
        assertThat(h.column()).isEqualTo(column);
        assertThat(h.snippet()).contains("UniqueTermDeepInside").hasSizeLessThanOrEqualTo(4096);
      });
      assertThat(index.search(new IndexQuery("LockOnlyTerm", SearchMode.INDEXED_LITERAL, null,
          10, false, AbortSignal.create(), 10_000)).hits())
          .extracting(IndexSearchHit::path).containsExactly("pnpm-lock.yaml");
    }
  }

  @Test
  void abortedSearchStopsEarly() throws Exception {
    for (int i = 0; i < 20; i++) {
      TestRepos.write(root, "f" + i + ".txt", "needle\n");
    }
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      LiteralResult r = literalSearch(index, "needle", false, null, 100, true,
          AbortSignal.aborted());
      assertThat(r.matches()).isEmpty();
      assertThat(r.truncated()).isTrue();
    }
  }

  // ------------------------------------------------------------------ generation

  private static List<String> queries(Path tree, Set<String> indexed, Random random)
      throws IOException {
    List<String> out = new ArrayList<>(List.of("a", "A", "é", "É", "ss", "STRASSE", "σ", "Σ",
        "i̇", "😀", "\ud83d", "r\r", "\t", "e ", "nope-not-there", "\ufffd", "k", "K",
        // Made only of common trigrams, or a bigram inside one: no gram filter (Grams.isCommon).
        "import", "IMPORT", "    ", "im", "tion", "return", "String", "ing ", "mp"));
    List<String> files = new ArrayList<>(indexed);
    files.sort(null);
    for (int i = 0; i < 25 && !files.isEmpty(); i++) {
      List<String> lines = lines(tree.resolve(files.get(random.nextInt(files.size()))));
      if (lines.isEmpty()) {
        continue;
      }
      String line = lines.get(random.nextInt(lines.size()));
      if (line.isEmpty() || line.length() > 1000) {
        continue;
      }
      int from = random.nextInt(line.length());
      int to = Math.min(line.length(), from + 1 + random.nextInt(12));
      String q = line.substring(from, to);
      if (random.nextBoolean()) {
        q = random.nextBoolean() ? q.toUpperCase(Locale.ROOT) : q.toLowerCase(Locale.ROOT);
      }
      out.add(q);
    }
    return out;
  }

  private static List<String> lines(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    dev.prismindex.repository.LiteralPattern.forEachLine(Files.readAllBytes(file),
        (line, text, bytes) -> lines.add(text));
    return lines;
  }
}
