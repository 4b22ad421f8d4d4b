package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Workspace}: several indexes ranked as one (BM25 with the statistics of all of them, so a
 * repository does not win by its index's size; the answer of one index holding every repository),
 * hits naming their repository and checked against its tree, the literal union in a stable order
 * with one limit, the repository filter, and what cannot be searched as one.
 */
class WorkspaceTest {

  @TempDir Path dir;

  /** Sixty words: each query below meets a few chunks, fewer than a search's depth (50). */
  private static final List<String> WORDS = words();

  private static List<String> words() {
    List<String> out = new ArrayList<>();
    for (String a : List.of("re", "ba", "pa", "to", "ca", "flu")) {
      for (String b : List.of("try", "ckoff", "rse", "ken", "che", "sh", "eam", "ffer", "code",
          "ma")) {
        out.add(a + b);
      }
    }
    return out;
  }

  /** A Java file of generated methods, its words drawn from {@link #WORDS}. */
  private static String javaFile(String cls, Random r) {
    StringBuilder sb = new StringBuilder("package p;\n\n/** " + cls + " helpers. */\npublic class ")
        .append(cls).append(" {\n");
    for (int m = 0; m < 3; m++) {
      String a = WORDS.get(r.nextInt(WORDS.size()));
      String b = WORDS.get(r.nextInt(WORDS.size()));
      sb.append("  /** Does the ").append(a).append(" of a ").append(b).append(". */\n")
          .append("  int ").append(a).append(cap(b)).append(m).append("(int ").append(b)
          .append(") {\n    return ").append(b).append(" * ").append(r.nextInt(90) + 2)
          .append("; // ").append(WORDS.get(r.nextInt(WORDS.size()))).append("\n  }\n\n");
    }
    return sb.append("}\n").toString();
  }

  private static String cap(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private HybridIndex indexed(Path root) throws IOException {
    HybridIndex index = TestRepos.open(root, TestEmbedders.fake());
    index.refresh(RefreshOptions.INCREMENTAL);
    return index;
  }

  /**
   * The reference: a workspace of a large repository ({@code lib/}, 40 files) and a small one
   * ({@code app/}, 4 files) answers every ranked query exactly as one index of a directory holding
   * both trees: the same hits in the same order with the same raw BM25 scores, ranks and cosines.
   * Scores from each index's own statistics would differ (the two repositories' term frequencies
   * and lengths differ), and so would the order. (HYBRID fuses these two rankings by rank, and
   * one index orders equal scores by document id, a workspace by repository: its fused scores
   * differ where the inputs tie.)
   */
  @ParameterizedTest
  @EnumSource(value = SearchMode.class, names = {"LEXICAL", "SEMANTIC"})
  void aWorkspaceRanksAsOneIndexHoldingEveryRepository(SearchMode mode) throws Exception {
    Path large = Files.createDirectory(dir.resolve("large"));
    Path small = Files.createDirectory(dir.resolve("small"));
    Path both = Files.createDirectory(dir.resolve("both"));
    Random r = new Random(42);
    for (int i = 0; i < 40; i++) {
      String text = javaFile("Lib" + i, r);
      write(large, "lib/Lib" + i + ".java", text);
      write(both, "lib/Lib" + i + ".java", text);
    }
    for (int i = 0; i < 4; i++) {
      String text = javaFile("App" + i, r);
      write(small, "app/App" + i + ".java", text);
      write(both, "app/App" + i + ".java", text);
    }
    try (HybridIndex l = indexed(large); HybridIndex s = indexed(small);
        HybridIndex one = indexed(both)) {
      Workspace workspace = Workspace.of(Map.of("large", l, "small", s))
          .withoutRepositoryPrior();
      for (String query : List.of("retry", "parse the token", "recode baffer pama",
          "flush a cash of toeam", "rema caken")) {
        SearchOpts opts = SearchOpts.builder().mode(mode).limit(20).build();
        List<Hit> expected = one.search(query, opts);
        List<Hit> actual = workspace.search(query, opts);
        assertThat(expected).as(query).isNotEmpty();
        assertThat(actual).as(query).hasSameSizeAs(expected);
        for (Hit a : actual) {
          assertThat(a.repo()).as(query).isEqualTo(a.path().startsWith("lib/") ? "large"
              : "small");
        }
        // The same scores in the same order, and the same hits: hits of equal scores may come in
        // another order (one index breaks those ties by document id), and of the hits that tie
        // with the last one, the limit may keep others.
        assertThat(actual).extracting(Hit::score).as(query)
            .containsExactlyElementsOf(expected.stream().map(Hit::score).toList());
        double last = expected.get(expected.size() - 1).score();
        assertThat(comparable(actual, last)).as(query).isEqualTo(comparable(expected, last));
      }
    }
  }

  /**
   * The hits scoring above {@code last}, without their repository and engine ranks, ordered by
   * score, then path and line.
   */
  private static List<Hit> comparable(List<Hit> hits, double last) {
    List<Hit> out = new ArrayList<>();
    for (Hit h : hits) {
      if (h.score() <= last) {
        continue;
      }
      out.add(new Hit(h.path(), h.line(), h.endLine(), h.column(), h.snippet(), h.score(),
          h.mode(), h.language(), h.symbol(), h.lexical() == null ? null
              : new EngineScore(1, h.lexical().score()), h.semantic() == null ? null
              : new EngineScore(1, h.semantic().score()), h.literal()));
    }
    out.sort(java.util.Comparator.comparingDouble(Hit::score).reversed()
        .thenComparing(Hit::path).thenComparingInt(Hit::line));
    return out;
  }

  /**
   * The same file in a small repository and in a large one, the query's term rare in the small one
   * and common in the large one: by each index's own statistics the small repository's copy
   * scores more than twice as high (its idf), so merging the two answers by score would put it
   * first; in a workspace (without the repository prior, which only adds to the large one's lead
   * here) both copies score the same, and the tie goes to the repository first by name.
   */
  @ParameterizedTest
  @EnumSource(value = SearchMode.class, names = {"LEXICAL", "HYBRID"})
  void aRepositoryDoesNotWinBecauseItsIndexIsSmall(SearchMode mode) throws Exception {
    Path large = Files.createDirectory(dir.resolve("large"));
    Path small = Files.createDirectory(dir.resolve("small"));
    String shared = "class Shared {\n  /** Frobnicate the value. */\n"
        + "  void frobnicateAll(int value) { frobnicate(value); }\n}\n";
    write(large, "src/Shared.java", shared);
    write(small, "src/Shared.java", shared);
    for (int i = 0; i < 40; i++) {
      write(large, "src/F" + i + ".java", "class F" + i + " {\n  int frobnicate() { return " + i
          + "; }\n}\n");
    }
    for (int i = 0; i < 10; i++) {
      write(small, "src/G" + i + ".java", "class G" + i + " {\n  int count" + i
          + "() { return " + i + "; } // nothing to see\n}\n");
    }
    try (HybridIndex l = indexed(large); HybridIndex s = indexed(small)) {
      SearchOpts lexical = SearchOpts.builder().mode(SearchMode.LEXICAL).limit(50).build();
      double ownLarge = shared(l.search("frobnicate", lexical), null).lexical().score();
      double ownSmall = shared(s.search("frobnicate", lexical), null).lexical().score();
      assertThat(ownSmall).as("by its own statistics the small copy scores higher")
          .isGreaterThan(ownLarge * 2);

      // "zeta" before "alpha": the tie must go to the name, not to the map's order.
      Workspace workspace = Workspace.of(Map.of("zeta", s, "alpha", l));
      SearchOpts opts = SearchOpts.builder().mode(mode).limit(50).build();
      // With the repository prior (the default) the small copy does not come first either: the
      // query's word is rarer among the small repository's chunks.
      List<Hit> weighed = workspace.search("frobnicate", opts);
      assertThat(weighed.indexOf(shared(weighed, "alpha")))
          .isLessThan(weighed.indexOf(shared(weighed, "zeta")));
      List<Hit> hits = workspace.withoutRepositoryPrior().search("frobnicate", opts);
      Hit first = shared(hits, "alpha");
      Hit second = shared(hits, "zeta");
      assertThat(hits.indexOf(first)).isLessThan(hits.indexOf(second));
      if (mode == SearchMode.LEXICAL) {
        assertThat(first.lexical().score()).isEqualTo(second.lexical().score());
        assertThat(hits.indexOf(second)).isEqualTo(hits.indexOf(first) + 1);
        assertThat(first.score()).isEqualTo(second.score());
      } else {
        // A hybrid hit's engine scores and ranks are its repository's own search's (the merge
        // decides the places, each repository's own search their hits: see
        // aHybridSearchKeepsEachRepositorysOwnOrder).
        assertThat(first.lexical().score()).isEqualTo(ownLarge);
        assertThat(second.lexical().score()).isEqualTo(ownSmall);
        assertThat(first.semantic().score()).isEqualTo(second.semantic().score());
      }
    }
  }

  /**
   * The repository prior: the same definition in two repositories, the shorter copy (BM25's length
   * norm favours it) in a repository none of whose other chunks mention the query's {@code
   * socket}, the longer in one where every chunk does. As one index, the shorter copy comes first;
   * the workspace's default ranking weighs the repository the query's words come from first.
   */
  @ParameterizedTest
  @EnumSource(value = SearchMode.class, names = {"LEXICAL", "HYBRID"})
  void theRepositoryTheQuerysWordsComeFromWeighsMore(SearchMode mode) throws Exception {
    Path net = Files.createDirectory(dir.resolve("net"));
    Path math = Files.createDirectory(dir.resolve("math"));
    for (int i = 0; i < 12; i++) {
      write(net, "src/Net" + i + ".java", "class Net" + i + " {\n  void open" + i
          + "(int port) { socket.connect(port); }\n}\n");
      write(math, "src/Mat" + i + ".java", "class Mat" + i + " {\n  double dot" + i
          + "(double[] v) { return v[0] * v[1]; }\n}\n");
    }
    write(net, "src/Reader.java", "class Reader {\n  String readHeader(String socket) {"
        + " return socket.trim().toLowerCase(); }\n}\n");
    write(math, "src/Header.java", "class Header {\n  String readHeader(String socket) {"
        + " return socket; }\n}\n");
    try (HybridIndex n = indexed(net); HybridIndex m = indexed(math)) {
      Workspace workspace = Workspace.of(Map.of("net", n, "math", m));
      SearchOpts opts = SearchOpts.builder().mode(mode).limit(5).build();
      String query = "read header socket";
      assertThat(workspace.withoutRepositoryPrior().search(query, opts).get(0))
          .extracting(Hit::repo, Hit::path).containsExactly("math", "src/Header.java");
      assertThat(workspace.search(query, opts).get(0))
          .extracting(Hit::repo, Hit::path).containsExactly("net", "src/Reader.java");
    }
  }

  /**
   * The merge rule: every repository's candidates in one ranking by scores that compare, not each
   * repository's own ranking merged by rank (round robin) or by its scores over its own best (the
   * quality benchmark's workspace ranked worse with either: docs/benchmarks.md, section 11). A
   * repository whose best chunk barely matches the query (one of its words, once, in a long chunk)
   * does not place it among another repository's three close matches, which each score a little
   * less than the one before: over its own best it would tie with the first (and the tie go to
   * its name), by rank come second.
   */
  @ParameterizedTest
  @EnumSource(value = SearchMode.class, names = {"LEXICAL", "SEMANTIC", "HYBRID"})
  void aRepositorysBestHitDoesNotOutrankAnothersBetterHits(SearchMode mode) throws Exception {
    Path strong = Files.createDirectory(dir.resolve("strong"));
    Path weak = Files.createDirectory(dir.resolve("weak"));
    for (int i = 0; i < 3; i++) {
      // Each a little longer than the one before: they score 1, less, less by their own best.
      write(strong, "src/Cache" + i + ".java", "class Cache" + i + " {\n  /** Evict stale entries"
          + " once they expire".repeat(i) + ". */\n  void evictStale" + i
          + "() { entries.evict(stale); }\n}\n");
    }
    StringBuilder other = new StringBuilder();
    Random r = new Random(7);
    for (int i = 0; i < 7; i++) {
      write(strong, "src/Other" + i + ".java", javaFile("Other" + i, r));
      write(weak, "src/Unrelated" + i + ".java", javaFile("Unrelated" + i, r));
      other.append(WORDS.get(r.nextInt(WORDS.size()))).append(' ');
    }
    write(weak, "src/Notes.java", "class Notes {\n  /** " + other + "evict " + other + ". */\n"
        + "  int tokenCount(int parsed) { return parsed; }\n}\n");
    try (HybridIndex s = indexed(strong); HybridIndex w = indexed(weak)) {
      SearchOpts opts = SearchOpts.builder().mode(mode).limit(4).build();
      assertThat(w.search("evict stale entries", opts)).extracting(Hit::path).as("its own best")
          .first().isEqualTo("src/Notes.java");
      // "faint" before "strong": equal scores would go to the faint repository.
      Workspace workspace = Workspace.of(Map.of("strong", s, "faint", w));
      for (Workspace ws : List.of(workspace, workspace.withoutRepositoryPrior())) {
        List<Hit> hits = ws.search("evict stale entries", opts);
        assertThat(hits.subList(0, 3)).extracting(h -> h.repo() + ":" + h.path())
            .as(mode.wireName()).containsExactly("strong:src/Cache0.java",
                "strong:src/Cache1.java", "strong:src/Cache2.java");
      }
    }
  }

  /** The {@code path:line} of each of {@code hits} (of repository {@code repo}, when not null). */
  private static List<String> places(List<Hit> hits,
      @org.jspecify.annotations.Nullable String repo) {
    return hits.stream().filter(h -> repo == null || repo.equals(h.repo()))
        .map(h -> h.path() + ":" + h.line()).toList();
  }

  /**
   * A hybrid search never reorders a repository's own hits: the merge decides which repository
   * holds each place, and each repository's places hold its hits in the order its index alone
   * gives them (rank fusion over the pooled lists would reorder them: each signal's ranks
   * interleave with the other repositories' candidates differently). Under the learned ranker, a
   * sentence's places go to the repositories as the hand-set stack's pooled answer gives them (the
   * ranker's scores compare poorly across repositories): each repository holds as many places as
   * in the same search under {@link Fusion#rrf()}.
   */
  @Test
  void aHybridSearchKeepsEachRepositorysOwnOrder() throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    Random r = new Random(11);
    for (int i = 0; i < 30; i++) {
      write(a, "src/A" + i + ".java", javaFile("A" + i, r));
      write(b, "src/B" + i + ".java", javaFile("B" + i, r));
    }
    try (HybridIndex ia = indexed(a); HybridIndex ib = indexed(b)) {
      Map<String, HybridIndex> byName = Map.of("a", ia, "b", ib);
      Workspace workspace = Workspace.of(byName);
      SearchOpts opts = SearchOpts.builder().mode(SearchMode.HYBRID).limit(10).build();
      SearchOpts hand = SearchOpts.builder().mode(SearchMode.HYBRID).limit(10)
          .fusion(Fusion.rrf()).build();
      int queries = 0;
      for (int q = 0; q < 12; q++) {
        String query = WORDS.get(q * 5 % WORDS.size()) + " of a " + WORDS.get(q * 7 % WORDS.size())
            + " " + WORDS.get(q * 11 % WORDS.size());
        List<Hit> hits = workspace.search(query, opts);
        List<Hit> byHand = workspace.search(query, hand);
        for (Map.Entry<String, HybridIndex> e : byName.entrySet()) {
          List<String> mine = places(hits, e.getKey());
          List<String> alone = places(e.getValue().search(query, opts), null);
          assertThat(mine).as(e.getKey() + ": " + query)
              .containsExactlyElementsOf(alone.subList(0, mine.size()));
          assertThat(mine).as(e.getKey() + " places: " + query)
              .hasSameSizeAs(places(byHand, e.getKey()));
          queries += mine.size() > 1 ? 1 : 0;
        }
        assertThat(hits).extracting(Hit::score).as(query)
            .isSortedAccordingTo(java.util.Comparator.reverseOrder());
      }
      assertThat(queries).as("answers holding several hits of a repository").isGreaterThan(12);
    }
  }

  /** The hit of {@code src/Shared.java} (of repository {@code repo}, when not null). */
  private static Hit shared(List<Hit> hits, @org.jspecify.annotations.Nullable String repo) {
    return hits.stream().filter(h -> h.path().equals("src/Shared.java")
        && (repo == null || repo.equals(h.repo()))).findFirst().orElseThrow();
  }

  /** Each hit is checked against its own repository's tree: the same path, two repositories. */
  @Test
  void eachHitIsCheckedAgainstItsOwnRepository() throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    write(a, "src/Main.java", "class Main {\n  void launchRocket() {}\n}\n");
    write(b, "src/Main.java", "class Main {\n\n\n  // padding\n  void launchRocket() {}\n}\n");
    try (HybridIndex ia = indexed(a); HybridIndex ib = indexed(b)) {
      Workspace workspace = Workspace.of(Map.of("a", ia, "b", ib));
      SearchOpts opts = SearchOpts.lexical(10);
      assertThat(workspace.search("launchRocket", opts))
          .extracting(Hit::repo, Hit::path, Hit::line)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("a", "src/Main.java", 2),
              org.assertj.core.groups.Tuple.tuple("b", "src/Main.java", 5));
      Files.delete(b.resolve("src/Main.java"));
      assertThat(workspace.search("launchRocket", opts)).extracting(Hit::repo)
          .containsExactly("a");
    }
  }

  /**
   * Literal answers: each repository's matches in path and line order, repositories by name; the
   * limit counts the whole answer, and {@code truncated} says a further match exists, also in a
   * repository not reached.
   */
  @Test
  void literalAnswersAreTheUnionInAStableOrderWithOneLimit() throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    write(a, "x.txt", "needle one\nnothing\nneedle two\n");
    write(a, "w.txt", "a needle\n");
    write(b, "a.txt", "needle in b\n");
    try (HybridIndex ia = indexed(a); HybridIndex ib = indexed(b)) {
      Workspace workspace = Workspace.of(Map.of("b", ib, "a", ia));
      SearchResult all = workspace.searchResult("needle", SearchOpts.literal(10, false));
      assertThat(all.hits()).extracting(Hit::repo, Hit::path, Hit::line).containsExactly(
          org.assertj.core.groups.Tuple.tuple("a", "w.txt", 1),
          org.assertj.core.groups.Tuple.tuple("a", "x.txt", 1),
          org.assertj.core.groups.Tuple.tuple("a", "x.txt", 3),
          org.assertj.core.groups.Tuple.tuple("b", "a.txt", 1));
      assertThat(all.truncated()).isFalse();

      SearchResult three = workspace.searchResult("needle", SearchOpts.literal(3, false));
      assertThat(three.hits()).hasSize(3).allMatch(h -> "a".equals(h.repo()));
      assertThat(three.truncated()).as("b's match lies beyond the limit").isTrue();

      SearchResult two = workspace.searchResult("needle", SearchOpts.literal(2, false));
      assertThat(two.hits()).hasSize(2);
      assertThat(two.truncated()).isTrue();
      assertThat(workspace.searchResult("needle in b", SearchOpts.literal(1, false)).hits())
          .extracting(Hit::repo).containsExactly("b");
    }
  }

  /**
   * Regex answers and streams: each repository's matches with their spans, named after it, in the
   * order {@code searchResult} gives; the stream hands over the same hits and stops at the
   * workspace's limit, saying a further match exists in a repository not reached.
   */
  @Test
  void regexAnswersStreamTheUnionNamingEachRepository() throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    write(a, "x.txt", "retryCount = 3\nnothing\nretryLimit and retryCount\n");
    write(b, "a.txt", "retryDelay\n");
    try (HybridIndex ia = indexed(a); HybridIndex ib = indexed(b)) {
      Workspace workspace = Workspace.of(Map.of("b", ib, "a", ia));
      SearchOpts opts = SearchOpts.builder().mode(SearchMode.REGEX).limit(10).build();
      SearchResult all = workspace.searchResult("retry[A-Z]\\w+", opts);
      assertThat(all.hits()).extracting(Hit::repo, Hit::path, Hit::line).containsExactly(
          org.assertj.core.groups.Tuple.tuple("a", "x.txt", 1),
          org.assertj.core.groups.Tuple.tuple("a", "x.txt", 3),
          org.assertj.core.groups.Tuple.tuple("b", "a.txt", 1));
      assertThat(all.hits().get(1).matches()).extracting(m -> m.text())
          .containsExactly("retryLimit", "retryCount");
      assertThat(all.truncated()).isFalse();

      List<Hit> streamed = new ArrayList<>();
      SearchResult r = workspace.stream("retry[A-Z]\\w+", opts, streamed::add);
      assertThat(r.hits()).isEmpty();
      assertThat(streamed).isEqualTo(all.hits());

      List<Hit> two = new ArrayList<>();
      SearchResult cut = workspace.stream("retry[A-Z]\\w+",
          SearchOpts.builder().mode(SearchMode.REGEX).limit(2).build(), two::add);
      assertThat(two).extracting(Hit::repo).containsExactly("a", "a");
      assertThat(cut.truncated()).as("b's match lies beyond the limit").isTrue();
      assertThatThrownBy(() -> workspace.stream("retry", SearchOpts.lexical(5), h -> { }))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void theRepositoryFilterSelectsByNameAndGlob() throws Exception {
    Map<String, HybridIndex> indexes = new LinkedHashMap<>();
    List<HybridIndex> open = new ArrayList<>();
    try {
      for (String name : List.of("api", "client-go", "client-java")) {
        Path root = Files.createDirectory(dir.resolve(name));
        write(root, "README.md", "# " + name + "\n\nThe shared word quokka.\n");
        HybridIndex index = indexed(root);
        open.add(index);
        indexes.put(name, index);
      }
      Workspace workspace = Workspace.of(indexes);
      SearchOpts opts = SearchOpts.lexical(10);
      assertThat(workspace.search("quokka", opts)).extracting(Hit::repo)
          .containsExactlyInAnyOrder("api", "client-go", "client-java");
      assertThat(workspace.only(List.of("client-*")).search("quokka", opts)).extracting(Hit::repo)
          .containsExactlyInAnyOrder("client-go", "client-java");
      assertThat(workspace.only(List.of("api", "CLIENT-G*")).indexes()).containsOnlyKeys("api",
          "client-go");
      assertThat(workspace.only(List.of("!client-java")).indexes()).containsOnlyKeys("api",
          "client-go");
      assertThat(workspace.only(List.of("client-*", "!*-java")).indexes())
          .containsOnlyKeys("client-go");
      assertThatThrownBy(() -> workspace.only(List.of("web")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("no repository 'web'").hasMessageContaining("api, client-go");
      assertThatThrownBy(() -> workspace.only(List.of("web-*")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("matches web-*");
      assertThatThrownBy(() -> workspace.only(List.of("*", "!*")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("matches *,!*");
      assertThatThrownBy(() -> workspace.only(List.of("../etc")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid");
    } finally {
      for (HybridIndex i : open) {
        i.close();
      }
    }
  }

  @Test
  void namesAreShortAndSafe() {
    assertThat(Workspace.checkName("client-java_2.x")).isEqualTo("client-java_2.x");
    for (String bad : List.of("", ".hidden", "-opt", "a/b", "a b", "x".repeat(101), "a\u0000")) {
      assertThatThrownBy(() -> Workspace.checkName(bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> Workspace.of(Map.of())).isInstanceOf(IllegalArgumentException.class);
  }

  /** Cosines of two models do not compare: a semantic search says which repositories differ. */
  @Test
  void repositoriesEmbeddedByDifferentModelsCannotBeSearchedSemantically() throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    write(a, "A.java", "class A { void parseToken() {} }\n");
    write(b, "B.java", "class B { void parseToken() {} }\n");
    try (HybridIndex ia = TestRepos.open(a, TestEmbedders.fake("model-one", 64));
        HybridIndex ib = TestRepos.open(b, TestEmbedders.fake("model-two", 64))) {
      ia.refresh(RefreshOptions.INCREMENTAL);
      ib.refresh(RefreshOptions.INCREMENTAL);
      Workspace workspace = Workspace.of(Map.of("a", ia, "b", ib));
      assertThatThrownBy(() -> workspace.search("parse token", SearchOpts.hybrid(5)))
          .isInstanceOf(SemanticSearchUnavailableException.class)
          .hasMessageContaining("repositories a and b embed with different models");
      assertThat(workspace.search("parseToken", SearchOpts.lexical(5))).hasSize(2);
    }
  }

  /** {@link Workspace#open} opens (and {@link Workspace#close} closes) the indexes it names. */
  @Test
  void openAndCloseTheIndexes() throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    write(a, "A.md", "zebra crossing\n");
    try (HybridIndex ia = indexed(a)) {
      assertThat(ia.search("zebra", SearchOpts.lexical(1))).hasSize(1);
    }
    Workspace workspace = Workspace.open(Map.of("a",
        HybridIndexOptions.builder(a).embedder(TestEmbedders.fake()).build()));
    assertThat(workspace.search("zebra", SearchOpts.lexical(1))).extracting(Hit::repo)
        .containsExactly("a");
    HybridIndex index = workspace.indexes().get("a");
    workspace.close();
    assertThatThrownBy(() -> index.search("zebra", SearchOpts.lexical(1)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> workspace.search("zebra", SearchOpts.lexical(1)))
        .isInstanceOf(IllegalStateException.class);
  }
}
