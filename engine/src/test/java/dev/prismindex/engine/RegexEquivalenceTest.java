package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.MatchSpan;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.repository.SearchSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * REGEX answers of the engine (planned over the gram index, verified against the files) equal
 * core's scanner in regex mode on the indexed files, on seeded random trees and patterns: every matching
 * line in order, with every match's span; collected ({@link HybridIndex#searchResult}) and streamed
 * ({@link HybridIndex#stream}) alike. The seed is in every assertion message; rerun with
 * {@code -Dprism.seed=<seed>}.
 */
class RegexEquivalenceTest {

  private static final String[] WORDS = {"alpha", "Beta", "GAMMA", "parseDuration", "snake_case",
      "x", "ab", "é", "straße", "İstanbul", "ΣΊΣΥΦΟΣ", "😀", "foo(bar", "\"q\"", "*", ":", "\\",
      "tab\there", "a.b", "[x]", "  ", "K", "k", "\u212A", "ſ", "import", "    return", "toString",
      "Implementation", "the", "getXml", "getYml", "id_42"};

  private static final String[] PATTERNS = {"parseDuration", "parse\\w+", "get[XY]ml", "(?i)getxml",
      "\\bthe\\b", "alpha|beta", "(?i)alpha|beta", "\\d+", "[A-Z]\\w+", "^\\s+return", "\\)$",
      "foo\\(bar", "ß|ss", "(?i)STRASSE", "(?i)straße", "σ", "(?i)σ", "Σ", "İ", "(?i)i", "k",
      "(?i)k", "ſ", "😀", "\\S+\\s*$", "x+?", "(?:ab){2,}", "snake_\\w{4}", "id_\\d\\d", "\\r",
      "mid$", ".", "^$", "[^a-z]+", "\\p{Greek}+", "tab\\there", "nope|missing", "ion", "return",
      "a\\.b", "\\[x\\]"};

  @TempDir Path root;

  record M(String path, int line, int column, List<MatchSpan> spans) {}

  @Test
  void regexAnswersEqualTheScannerOnRandomTrees() throws Exception {
    long seed = Long.getLong("prism.seed", System.nanoTime());
    Random random = new Random(seed);
    RepositoryOperations scanner = RepositoryOperations.local(RepositoryLimits.builder()
        .maxMatches(10_000).maxFiles(100_000).maxEntries(100_000).build());
    for (int round = 0; round < 3; round++) {
      Path tree = root.resolve("round" + round);
      try (HybridIndex index = RandomTrees.indexed(tree, root.resolve("home" + round), random,
          WORDS, " parseDuration")) {
        Set<String> indexed = manifest(index).keySet();
        for (String pattern : PATTERNS) {
          for (int variant = 0; variant < 3; variant++) {
            boolean cs = variant != 1;
            boolean words = variant == 2;
            String msg = "seed " + seed + " round " + round + " /" + pattern + "/ caseSensitive "
                + cs + " words " + words;
            SearchOpts opts = SearchOpts.builder().mode(SearchMode.REGEX)
                .limit(SearchOpts.UNLIMITED).caseSensitive(cs).wholeWords(words).build();
            SearchResult got = index.searchResult(pattern, opts);
            List<M> engine = got.hits().stream()
                .map(h -> new M(h.path(), h.line(), h.column(), h.matches())).toList();
            List<M> real = new ArrayList<>();
            scanner.stream(RepositorySearchRequest.builder(tree, pattern).mode(SearchMode.REGEX)
                .caseSensitive(cs).wholeWords(words).context(0).build(), new SearchSink() {
                  @Override
                  public boolean wants(String path) {
                    return indexed.contains(path);
                  }

                  @Override
                  public boolean accept(RepositorySearchMatch m, List<MatchSpan> spans) {
                    real.add(new M(m.path(), m.line(), m.column(), spans));
                    return true;
                  }
                });
            assertThat(engine).as(msg).isEqualTo(real);
            assertThat(got.truncated()).as(msg).isFalse();
            List<Hit> streamed = new ArrayList<>();
            SearchResult s = index.stream(pattern, opts, streamed::add);
            assertThat(streamed).as(msg + " (streamed)").isEqualTo(got.hits());
            assertThat(s.hits()).isEmpty();
            assertThat(s.everyFileRead()).isEqualTo(got.everyFileRead());
            // A limit keeps the first matches and says that more exist.
            if (engine.size() > 2) {
              SearchResult cut = index.searchResult(pattern, SearchOpts.builder()
                  .mode(SearchMode.REGEX).limit(2).caseSensitive(cs).wholeWords(words).build());
              assertThat(cut.hits()).as(msg).isEqualTo(got.hits().subList(0, 2));
              assertThat(cut.truncated()).as(msg).isTrue();
            }
            // A cap per file keeps each file's first match.
            List<M> firstOfEach = new ArrayList<>();
            for (M m : engine) {
              if (firstOfEach.isEmpty() || !firstOfEach.get(firstOfEach.size() - 1).path()
                  .equals(m.path())) {
                firstOfEach.add(m);
              }
            }
            assertThat(index.searchResult(pattern, SearchOpts.builder().mode(SearchMode.REGEX)
                .limit(SearchOpts.UNLIMITED).caseSensitive(cs).wholeWords(words).maxPerFile(1)
                .build()).hits().stream()
                .map(h -> new M(h.path(), h.line(), h.column(), h.matches())).toList())
                .as(msg + " (one per file)").isEqualTo(firstOfEach);
          }
        }
      }
    }
  }

  @Test
  void aPatternWithoutGramsReadsEveryFileAndSaysSo() throws Exception {
    TestRepos.write(root, "a.txt", "abc 12\n");
    TestRepos.write(root, "b.txt", "zyx\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      SearchOpts regex = SearchOpts.builder().mode(SearchMode.REGEX).limit(10)
          .caseSensitive(true).build();
      SearchResult any = index.searchResult("\\d+", regex);
      assertThat(any.everyFileRead()).isTrue();
      assertThat(any.hits()).extracting(Hit::path, Hit::line, Hit::column)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("a.txt", 1, 5));
      SearchResult planned = index.searchResult("zyx|abc", regex);
      assertThat(planned.everyFileRead()).isFalse();
      assertThat(planned.hits()).hasSize(2);
      assertThat(planned.hits().get(0).matches()).containsExactly(new MatchSpan(1, 4, "abc"));
      assertThat(planned.hits().get(0).mode()).isEqualTo(SearchMode.REGEX);
    }
  }

  @Test
  void theFilesAPatternWithoutGramsReadsFollowTheIndexAcrossRefreshes() throws Exception {
    TestRepos.write(root, "a.txt", "1\n");
    TestRepos.write(root, "sub/b.txt", "2\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      SearchOpts regex = SearchOpts.builder().mode(SearchMode.REGEX).limit(10)
          .caseSensitive(true).build();
      assertThat(index.searchResult("\\d", regex).hits()).extracting(Hit::path)
          .containsExactly("a.txt", "sub/b.txt");
      // Asked again (the list of every file kept for the open index), then after a change.
      assertThat(index.searchResult("\\d", regex).hits()).extracting(Hit::path)
          .containsExactly("a.txt", "sub/b.txt");
      assertThat(index.searchResult("\\d", SearchOpts.builder().mode(SearchMode.REGEX).limit(10)
          .files(FileFilter.scope("sub")).build()).hits()).extracting(Hit::path)
          .containsExactly("sub/b.txt");
      TestRepos.write(root, "c.txt", "3\n");
      Files.delete(root.resolve("a.txt"));
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.searchResult("\\d", regex).hits()).extracting(Hit::path)
          .containsExactly("c.txt", "sub/b.txt");
    }
  }

  @Test
  void aCapPerFileKeepsTheFirstMatchesOfEachFileAndTheLimitCountsWhatIsShown() throws Exception {
    TestRepos.write(root, "a.txt", "needle 1\nneedle 2\nneedle 3\n");
    TestRepos.write(root, "b.txt", "needle 4\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (SearchMode mode : List.of(SearchMode.LITERAL, SearchMode.REGEX)) {
        SearchResult all = index.searchResult("needle", SearchOpts.builder().mode(mode)
            .limit(3).maxPerFile(2).build());
        assertThat(all.hits()).as(mode.wireName()).extracting(Hit::path, Hit::line)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("a.txt", 1),
                org.assertj.core.groups.Tuple.tuple("a.txt", 2),
                org.assertj.core.groups.Tuple.tuple("b.txt", 1));
        assertThat(all.truncated()).as(mode.wireName() + ": a's third is capped, not cut")
            .isFalse();
        SearchResult cut = index.searchResult("needle", SearchOpts.builder().mode(mode)
            .limit(2).maxPerFile(2).build());
        assertThat(cut.hits()).as(mode.wireName()).hasSize(2);
        assertThat(cut.truncated()).as(mode.wireName() + ": b's match is cut").isTrue();
        SearchResult one = index.searchResult("needle", SearchOpts.builder().mode(mode)
            .limit(SearchOpts.UNLIMITED).maxPerFile(1).build());
        assertThat(one.hits()).as(mode.wireName()).extracting(Hit::path)
            .containsExactly("a.txt", "b.txt");
      }
    }
  }

  @Test
  void regexHitsAreCheckedAgainstTheWorkingTree() throws Exception {
    TestRepos.write(root, "a.txt", "needle one\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      // Changed after indexing: the hit reports the file as it is now.
      TestRepos.write(root, "a.txt", "x\nneedle two\n");
      SearchOpts regex = SearchOpts.builder().mode(SearchMode.REGEX).limit(10)
          .caseSensitive(true).build();
      assertThat(index.searchResult("needle \\w+", regex).hits())
          .extracting(Hit::line, Hit::snippet)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(2, "needle two"));
      // A symlink replacing the file is never followed.
      Files.delete(root.resolve("a.txt"));
      Path outside = Files.createTempFile("outside", ".txt");
      Files.writeString(outside, "needle three\n");
      Files.createSymbolicLink(root.resolve("a.txt"), outside);
      assertThat(index.searchResult("needle \\w+", regex).hits()).isEmpty();
      Files.delete(outside);
    }
  }

  @Test
  void badPatternsAndRankedModesAreRefusedBeforeTheIndexIsRead() throws Exception {
    try (HybridIndex index = TestRepos.open(root)) {
      SearchOpts regex = SearchOpts.builder().mode(SearchMode.REGEX).limit(10).build();
      assertThatThrownBy(() -> index.searchResult("a(", regex))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unclosed group");
      assertThatThrownBy(() -> index.stream("x", SearchOpts.lexical(5), h -> { }))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SearchOpts.builder().mode(SearchMode.LITERAL).wholeWords(true)
          .build()).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SearchOpts.builder().mode(SearchMode.LEXICAL).limit(50_000).build())
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SearchOpts.builder().mode(SearchMode.LEXICAL).maxPerFile(1).build())
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(SearchOpts.builder().mode(SearchMode.REGEX).limit(SearchOpts.UNLIMITED).build()
          .limit()).isEqualTo(Integer.MAX_VALUE);
    }
  }
}
