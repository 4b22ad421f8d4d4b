package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.embed.testing.FakeEmbedder;
import dev.prismindex.engine.internal.query.IdentifierGuard;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SEMANTIC and HYBRID answers: located hits with per-engine ranks, scores in [0, 1], the identifier
 * guard (property on seeded generated corpora), determinism across opens, no re-embedding of a
 * persisted index, path scopes, weighted fusion.
 */
class HybridSearchTest {

  @TempDir Path root;

  private static final String[] NOUNS = {"duration", "config", "request", "response", "cache",
      "index", "token", "stream", "buffer", "session", "user", "order", "payment", "metric",
      "widget", "parser", "schema", "record", "event", "queue"};
  private static final String[] VERBS = {"parse", "load", "store", "compute", "validate", "merge",
      "render", "flush", "resolve", "encode", "decode", "open", "close", "update", "find"};

  private static String cap(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** A generated Java corpus; returns the method names it defines. */
  private static List<String> generate(Path root, Random r, int files) throws Exception {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      String cls = cap(NOUNS[r.nextInt(NOUNS.length)]) + cap(NOUNS[r.nextInt(NOUNS.length)]) + i;
      StringBuilder sb = new StringBuilder("package pkg" + (i % 5) + ";\n\n/** Handles ")
          .append(cls).append(". */\npublic class ").append(cls).append(" {\n");
      int methods = 3 + r.nextInt(6);
      for (int m = 0; m < methods; m++) {
        String name = VERBS[r.nextInt(VERBS.length)] + cap(NOUNS[r.nextInt(NOUNS.length)])
            + cap(NOUNS[r.nextInt(NOUNS.length)]) + m;
        names.add(name);
        sb.append("  /** ").append(name).append(" for ").append(cls).append(". */\n");
        sb.append("  public int ").append(name).append("(String input, int count) {\n");
        int body = 2 + r.nextInt(12);
        for (int b = 0; b < body; b++) {
          String callee = r.nextInt(4) == 0 && !names.isEmpty()
              ? names.get(r.nextInt(names.size())) + "(input, " + b + ")"
              : "input.length() * " + r.nextInt(100);
          sb.append("    int v").append(b).append(" = ").append(callee).append(" + count; // ")
              .append(NOUNS[r.nextInt(NOUNS.length)]).append('\n');
        }
        sb.append("    return count;\n  }\n\n");
      }
      sb.append("}\n");
      write(root, "pkg" + (i % 5) + "/" + cls + ".java", sb.toString());
    }
    return names;
  }

  @Test
  void hybridPutsTheDefinitionOfAnIdentifierFirstOnGeneratedCorpora() throws Exception {
    long seed = Long.getLong("prism.seed", new Random().nextLong());
    Random r = new Random(seed);
    int defined = 0;
    int identifierQueries = 0;
    for (int corpus = 0; corpus < 3; corpus++) {
      Path dir = Files.createDirectory(root.resolve("c" + corpus));
      List<String> names = generate(dir, r, 30 + r.nextInt(30));
      try (HybridIndex index = TestRepos.open(dir, TestEmbedders.fake())) {
        index.refresh(RefreshOptions.INCREMENTAL);
        List<String> queries = new ArrayList<>();
        for (int q = 0; q < 40; q++) {
          String name = names.get(r.nextInt(names.size()));
          queries.add(switch (q % 4) {
            case 0, 1 -> name;
            case 2 -> name.substring(0, name.length() - 1); // a non-existing identifier
            default -> VERBS[r.nextInt(VERBS.length)] + cap(NOUNS[r.nextInt(NOUNS.length)]);
          });
        }
        for (String query : queries) {
          String msg = "seed " + seed + ", corpus " + corpus + ", query " + query;
          identifierQueries++;
          List<Hit> lexical = index.search(query, SearchOpts.lexical(10));
          List<Hit> hybrid = index.search(query, SearchOpts.hybrid(10));
          assertThat(hybrid).as(msg).allSatisfy(h -> assertThat(h.score()).isBetween(0.0, 1.0));
          assertThat(hybrid).extracting(Hit::score).as(msg).isSortedAccordingTo(
              (a, b) -> Double.compare(b, a));
          if (names.contains(query)) {
            // Defined (generated names are unique): the first hit is its declaration line.
            defined++;
            assertThat(hybrid).as(msg).isNotEmpty();
            assertThat(hybrid.get(0).snippet()).as(msg).contains(" " + query + "(String input");
            continue;
          }
          if (lexical.isEmpty()) {
            continue;
          }
          Hit top = lexical.get(0);
          if (IdentifierGuard.exactIdentifierMatch(top, List.of(), query)) {
            // Not defined but used: the lexical engine's top usage stays first.
            assertThat(hybrid.get(0).path()).as(msg).isEqualTo(top.path());
            assertThat(hybrid.get(0).line()).as(msg).isEqualTo(top.line());
          }
        }
      }
    }
    assertThat(defined).as("seed " + seed + ": the property was exercised")
        .isGreaterThan(identifierQueries / 3);
  }

  @Test
  void aOneWordNameDefinedOnceAndUsedEverywhereIsFoundAtItsDefinition() throws Exception {
    // spawn is defined once, in a class among other methods, and called everywhere: by helpers
    // whose own names contain it (spawnAll, spawnLater, ...) and by 150 workers.
    Path dir = Files.createDirectory(root.resolve("spawn"));
    StringBuilder def = new StringBuilder("package rt;\n\npublic final class Runtime {\n");
    for (String m : new String[] {"shutdown", "blockOn", "enter", "metrics", "handle"}) {
      def.append("  public void ").append(m).append("() {\n    pool.").append(m)
          .append("(this);\n  }\n\n");
    }
    def.append("  /** Starts a task on the runtime's pool and returns its handle. */\n");
    def.append("  public static Handle spawn(Task task) {\n");
    for (int i = 0; i < 12; i++) {
      def.append("    long slot").append(i).append(" = pool.reserve(task.weight() * ").append(i)
          .append(");\n");
    }
    def.append("    return new Handle(task);\n  }\n}\n");
    write(dir, "src/rt/Runtime.java", def.toString());
    long spawnLine = def.substring(0, def.indexOf("public static Handle spawn")).chars()
        .filter(c -> c == '\n').count() + 1;
    for (String helper : new String[] {"spawnAll", "spawnLater", "spawnLocal", "spawnBlocking",
        "spawnNamed", "trySpawn"}) {
      write(dir, "src/rt/" + helper + ".java", "package rt;\n\nclass " + helper + " {\n"
          + "  static Handle " + helper + "(Task task) {\n    return Runtime.spawn(task);\n"
          + "  }\n}\n");
    }
    for (int f = 0; f < 150; f++) {
      write(dir, "src/app/Worker" + f + ".java", "package app;\n\nclass Worker" + f + " {\n"
          + "  void run() {\n    Runtime.spawn(a);\n    Runtime.spawn(b);\n"
          + "    Runtime.spawn(c);\n  }\n}\n");
    }
    try (HybridIndex index = TestRepos.open(dir, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (int limit : new int[] {1, 8, 50}) {
        List<Hit> hybrid = index.search("spawn", SearchOpts.hybrid(limit));
        assertThat(hybrid.get(0).path()).as("limit %d", limit).isEqualTo("src/rt/Runtime.java");
        assertThat((long) hybrid.get(0).line()).as("limit %d", limit).isEqualTo(spawnLine);
      }
      // A scope that leaves the definition out is obeyed: the guard pins nothing outside it.
      List<Hit> scoped = index.search("spawn",
          SearchOpts.builder().mode(SearchMode.HYBRID).limit(10).pathScope("src/app").build());
      assertThat(scoped).isNotEmpty().allSatisfy(h -> assertThat(h.path()).startsWith("src/app/"));
    }
  }

  @Test
  void theFirstKHitsOfALargerLimitAreTheHitsOfLimitKAndTruncationSaysMoreExist()
      throws Exception {
    long seed = Long.getLong("prism.seed", new Random().nextLong());
    Random r = new Random(seed);
    Path dir = Files.createDirectory(root.resolve("limits"));
    List<String> names = generate(dir, r, 60);
    names.addAll(generate(dir.resolve("src/test"), r, 20)); // auxiliary files: the path prior
    try (HybridIndex index = TestRepos.open(dir, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (int q = 0; q < 30; q++) {
        String query = q % 2 == 0 ? names.get(r.nextInt(names.size()))
            : VERBS[r.nextInt(VERBS.length)] + " " + NOUNS[r.nextInt(NOUNS.length)] + " "
                + NOUNS[r.nextInt(NOUNS.length)];
        for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC,
            SearchMode.HYBRID)) {
          List<Hit> wide = index.search(query, new SearchOpts(50, mode, null));
          for (int k : new int[] {1, 5, 8, 10, 20, 49}) {
            SearchResult cut = index.searchResult(query, new SearchOpts(k, mode, null));
            assertThat(cut.hits())
                .as("seed %d, %s, query %s, limit %d", seed, mode, query, k)
                .isEqualTo(wide.subList(0, Math.min(k, wide.size())));
            // Knowing that more exist costs no ranking change: the next hit is looked for at
            // the same depth, and it is the next hit of the larger limit.
            assertThat(cut.truncated())
                .as("seed %d, %s, query %s, limit %d: truncated", seed, mode, query, k)
                .isEqualTo(wide.size() > k);
          }
        }
      }
    }
  }

  @Test
  void hybridKeepsTheDefinitionANamePhraseNamesWhenLexicalRanksItFirst() throws Exception {
    long seed = Long.getLong("prism.seed", new Random().nextLong());
    Random r = new Random(seed);
    Path dir = Files.createDirectory(root.resolve("phrases"));
    List<String> names = generate(dir, r, 40);
    int guarded = 0;
    try (HybridIndex index = TestRepos.open(dir, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (int q = 0; q < 60; q++) {
        // parseDurationConfig3 -> "parse duration config 3"
        String name = names.get(r.nextInt(names.size()));
        String phrase = String.join(" ", name.split("(?<=[a-z])(?=[A-Z0-9])"))
            .toLowerCase(java.util.Locale.ROOT);
        String msg = "seed " + seed + ", query " + phrase;
        List<Hit> lexical = index.search(phrase, SearchOpts.lexical(10));
        List<Hit> hybrid = index.search(phrase, SearchOpts.hybrid(10));
        assertThat(hybrid).extracting(Hit::score).as(msg).isSortedAccordingTo(
            (a, b) -> Double.compare(b, a));
        assertThat(IdentifierGuard.namePhrase(phrase)).as(msg).isNotNull();
        // The lexical top hit is the declaration line of the named method: its chunk defines it.
        if (!lexical.isEmpty() && lexical.get(0).snippet().contains(" " + name + "(")) {
          guarded++;
          // A definition of the named method (the generated corpus may define a name twice, in
          // two files: either is the answer).
          assertThat(hybrid.get(0).snippet()).as(msg).contains(" " + name + "(");
          if (lexical.stream().filter(h -> h.snippet().contains(" " + name + "(")).count() == 1) {
            assertThat(hybrid.get(0).path()).as(msg).isEqualTo(lexical.get(0).path());
            assertThat(hybrid.get(0).line()).as(msg).isEqualTo(lexical.get(0).line());
          }
        }
      }
    }
    assertThat(guarded).as("seed " + seed + ": the property was exercised").isGreaterThan(20);
  }

  @Test
  void namePhrasesAreTwoToSixWordsOfLettersAndDigits() {
    assertThat(IdentifierGuard.namePhrase("parse duration string")).isEqualTo("parsedurationstring");
    assertThat(IdentifierGuard.namePhrase("Utf 8 decoder")).isEqualTo("utf8decoder");
    assertThat(IdentifierGuard.namePhrase("parse")).isNull();
    assertThat(IdentifierGuard.namePhrase("parse-duration string")).isNull();
    assertThat(IdentifierGuard.namePhrase("a b c d e f g")).isNull();
    assertThat(IdentifierGuard.namesPhrase(List.of("other", "PARSE_DURATION_STRING"),
        "parsedurationstring")).isTrue();
    assertThat(IdentifierGuard.namesPhrase(List.of("parseDuration"), "parsedurationstring")).isFalse();
  }

  @Test
  void hitsCarryRanksScoresSymbolsAndBestLines() throws Exception {
    write(root, "src/Durations.java", """
        package demo;

        /** Parses durations. */
        public final class Durations {
          private Durations() {}

          /** Parses strings like 5s or 2m into milliseconds. */
          public static long parseDurationString(String text) {
            String t = text.trim();
            if (t.endsWith("s")) {
              return Long.parseLong(t.substring(0, t.length() - 1)) * 1000;
            }
            return Long.parseLong(t.substring(0, t.length() - 1)) * 60000;
          }
        }
        """);
    write(root, "src/Cache.java", """
        package demo;

        /** A least-recently-used cache of parsed configuration values. */
        public final class Cache {
          private final java.util.Map<String, Object> values = new java.util.HashMap<>();

          /** Evicts the oldest entry when the cache is full. */
          public void evictOldest() {
            values.remove(values.keySet().iterator().next());
          }
        }
        """);
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      List<Hit> semantic = index.search("evict oldest cache entry", SearchOpts.semantic(5));
      assertThat(semantic).isNotEmpty();
      Hit first = semantic.get(0);
      assertThat(first.path()).isEqualTo("src/Cache.java");
      assertThat(first.lexical()).isNull();
      assertThat(first.semantic()).isNotNull();
      assertThat(first.semantic().rank()).isEqualTo(1);
      assertThat(first.score()).isBetween(0.0, 1.0).isEqualTo(
          Math.max(0, Math.min(1, first.semantic().score())));
      // A semantic-only hit sits on its chunk's symbol line (the method is a chunk of its own).
      assertThat(first.symbol()).isEqualTo("evictOldest");
      assertThat(first.snippet()).isEqualTo("public void evictOldest() {");

      List<Hit> hybrid = index.search("parseDurationString", SearchOpts.hybrid(5));
      Hit h = hybrid.get(0);
      assertThat(h.path()).isEqualTo("src/Durations.java");
      assertThat(h.symbol()).isEqualTo("parseDurationString");
      assertThat(h.snippet()).contains("parseDurationString(String text)");
      assertThat(h.lexical()).isNotNull();
      assertThat(h.lexical().rank()).isEqualTo(1);
      assertThat(h.semantic()).isNotNull();
      assertThat(hybrid).allSatisfy(x -> assertThat(x.score()).isBetween(0.0, 1.0));
      // By reciprocal rank fusion, rank 1 in both engines is the maximum attainable fused score.
      Hit fused = index.search("parseDurationString", SearchOpts.builder().limit(5)
          .mode(SearchMode.HYBRID).fusion(Fusion.rrf()).build()).get(0);
      assertThat(fused.symbol()).isEqualTo("parseDurationString");
      if (fused.semantic().rank() == 1 && fused.lexical().rank() == 1) {
        assertThat(fused.score()).isEqualTo(1.0);
      }
      assertThat(index.search("   ", SearchOpts.hybrid(5))).isEmpty();
      assertThat(index.search("", SearchOpts.semantic(5))).isEmpty();
      assertThat(index.search("foo(bar \" * : \\ )", SearchOpts.hybrid(5))).isNotNull();
    }
  }

  @Test
  void resultsAreDeterministicAcrossOpensAndAPersistedIndexIsNotReEmbedded() throws Exception {
    generate(root, new Random(11), 40);
    List<String> queries = List.of("parse duration config", "flushBufferStream2", "cache",
        "validate the session token", "render widget event queue");
    List<List<Hit>> first = new ArrayList<>();
    FakeEmbedder builder = TestEmbedders.fake();
    try (HybridIndex index = TestRepos.open(root, builder)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (String q : queries) {
        first.add(index.search(q, SearchOpts.hybrid(10)));
        first.add(index.search(q, SearchOpts.semantic(10)));
      }
    }
    FakeEmbedder fresh = TestEmbedders.fake();
    try (HybridIndex index = TestRepos.open(root, fresh)) {
      List<List<Hit>> second = new ArrayList<>();
      for (String q : queries) {
        second.add(index.search(q, SearchOpts.hybrid(10)));
        second.add(index.search(q, SearchOpts.semantic(10)));
      }
      assertThat(second).isEqualTo(first);
      assertThat(fresh.documents.get()).as("no chunk re-embedded").isZero();
      assertThat(fresh.queries.get()).isEqualTo(2L * queries.size());
      IndexRunStats noChange = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(noChange.committed()).isFalse();
      assertThat(noChange.chunksEmbedded()).isZero();
      assertThat(fresh.documents.get()).isZero();
    }
    assertThat(first).allSatisfy(hits -> assertThat(hits).isNotEmpty());
  }

  @Test
  void scopesAndWeightedFusion() throws Exception {
    generate(root, new Random(5), 25);
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (SearchMode mode : List.of(SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        List<Hit> scoped = index.search("compute metric",
            SearchOpts.builder().mode(mode).limit(20).pathScope("pkg3/").build());
        assertThat(scoped).isNotEmpty().allSatisfy(h -> assertThat(h.path()).startsWith("pkg3/"));
        assertThat(index.search("compute metric",
            SearchOpts.builder().mode(mode).pathScope("nowhere").build())).isEmpty();
      }
      // Lexical weight only: the hits the lexical engine ranked come first, in its order.
      String q = "validate session token";
      List<Hit> lexical = index.search(q, SearchOpts.lexical(10));
      List<Hit> lexicalOnly = index.search(q,
          SearchOpts.builder().mode(SearchMode.HYBRID).limit(10)
              .fusion(Fusion.weighted(1, 0)).build());
      assertThat(lexicalOnly).extracting(Hit::path, Hit::line)
          .containsExactlyElementsOf(lexical.stream()
              .map(h -> org.assertj.core.groups.Tuple.tuple(h.path(), h.line())).toList());
      Set<String> semanticPaths = new LinkedHashSet<>();
      for (Hit h : index.search(q, SearchOpts.builder().mode(SearchMode.HYBRID).limit(10)
          .fusion(Fusion.weighted(0, 1)).build())) {
        semanticPaths.add(h.path() + ":" + h.endLine());
      }
      Set<String> semantic = new LinkedHashSet<>();
      for (Hit h : index.search(q, SearchOpts.semantic(10))) {
        semantic.add(h.path() + ":" + h.endLine());
      }
      assertThat(semanticPaths).containsExactlyElementsOf(semantic);
    }
  }

  @Test
  void fusionScoresAreNormalisedByTheMaximum() {
    Fusion rrf = Fusion.rrf();
    assertThat(rrf.normalised(1, 1)).isEqualTo(1.0);
    assertThat(rrf.normalised(1, 0)).isEqualTo(0.5);
    assertThat(rrf.normalised(0, 1)).isEqualTo(0.5);
    assertThat(rrf.k()).isEqualTo(10);
    assertThat(rrf.max()).isEqualTo(2.0 / 11);
    assertThat(rrf.normalised(2, 3)).isEqualTo((1.0 / 12 + 1.0 / 13) / (2.0 / 11));
    Fusion w = Fusion.weighted(2, 1);
    assertThat(w.normalised(1, 1)).isEqualTo(1.0);
    assertThat(w.normalised(1, 0)).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(w.normalised(0, 0)).isZero();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fusion.weighted(0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Fusion(0, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fusion.weighted(-1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fusion.weighted(Double.NaN, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
