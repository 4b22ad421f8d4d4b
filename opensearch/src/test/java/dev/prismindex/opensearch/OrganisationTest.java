package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.embed.HashingEmbedder;
import dev.prismindex.engine.GroupSearch.Verification;
import dev.prismindex.engine.GroupSearch;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An organisation's repositories searched as one on the two-node test cluster: one request per
 * signal over every repository's index answers as each repository searched alone (with the same
 * statistics) and merged; the number of shards changes no score; literal answers are each
 * repository's own, from its working tree or, without one, from the copies the indexes keep.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrganisationTest {

  private Path tmp;
  private final Map<String, Path> trees = new LinkedHashMap<>();
  private Organisation two;
  private Organisation three;

  @BeforeAll
  void indexTwoOrganisations() throws Exception {
    tmp = Files.createTempDirectory("prism-organisation-");
    Path main = Path.of("..", "core", "src", "main", "java", "dev", "prismindex");
    trees.put("core-repository", copy(main.resolve("repository"), "core-repository"));
    trees.put("core-index", copy(main.resolve("index"), "core-index"));
    trees.put("core-tool", copy(main.resolve("tool"), "core-tool"));
    Path scripts = tmp.resolve("scripts");
    write(scripts, "tools/report.py", "import json\n\n\ndef load_report(path):\n"
        + "    \"\"\"Reads a JSON report from disk and returns its entries.\"\"\"\n"
        + "    with open(path) as f:\n        return json.load(f)['entries']\n");
    write(scripts, "web/retry.ts", "export async function withRetry<T>(op: () => Promise<T>,"
        + " times = 3): Promise<T> {\n  let last: unknown;\n  for (let i = 0; i < times; i++) {\n"
        + "    try { return await op(); } catch (e) { last = e; }\n  }\n  throw last;\n}\n");
    write(scripts, "svc/cache.go", "package svc\n\n// LruCache evicts the least recently used"
        + " entry.\ntype LruCache struct {\n\tcap int\n\titems map[string]string\n}\n");
    write(scripts, "README.md", "# Scripts\n\n\u00dcn\u00efc\u00f6d\u00e9 line, IndexState "
        + "mentioned in prose.\n");
    trees.put("team/scripts", scripts);
    two = index("t1", 2, 1);
    three = index("t2", 3, 0);
  }

  private Organisation index(String org, int shards, int replicas) throws Exception {
    OpenSearchOptions o = TestCluster.options().indexName(null).organisation(org).shards(shards)
        .replicas(replicas).build();
    List<Organisation.Source> sources = new ArrayList<>();
    trees.forEach((name, root) -> sources.add(new Organisation.Source(name, root)));
    List<Organisation.Outcome> done = Organisation.index(sources, o, TestCluster::local,
        RefreshOptions.INCREMENTAL, 2, 2);
    assertThat(done).allSatisfy(d -> assertThat(d.error()).isNull());
    return Organisation.connect(o, RepositoryFilter.ALL);
  }

  @AfterAll
  void close() throws IOException {
    for (Organisation o : List.of(two, three)) {
      o.cluster().send("DELETE", "/" + Organisation.indexName(o == two ? "t1" : "t2"),
          Map.of(), null);
      o.close();
    }
  }

  private Path copy(Path from, String name) throws IOException {
    Path to = tmp.resolve(name);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        Files.createDirectories(target.getParent());
        Files.copy(f, target);
      }
    }
    return to;
  }

  private static void write(Path root, String path, String text) throws IOException {
    Path p = root.resolve(path);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private GroupSearch.Options withTrees() {
    return GroupSearch.Options.defaults().withEmbedder(new HashingEmbedder()).withTrees(trees);
  }

  private static GroupSearch.Options withoutTrees() {
    return GroupSearch.Options.defaults().withEmbedder(new HashingEmbedder());
  }

  /** The path prior off, so that an order is the scores' (the merge compares raw scores). */
  private static SearchOpts ranked(SearchMode mode) {
    return SearchOpts.builder().limit(10).mode(mode).auxiliaryWeight(1.0).build();
  }

  static Stream<Arguments> rankedQueries() {
    List<Arguments> out = new ArrayList<>();
    for (String q : List.of("IndexedRepositoryOperations", "literal pattern", "RelativePath",
        "where is the stale index check", "retry with backoff", "LruCache", "snippet",
        "load report json", "the backend is not fresh")) {
      for (SearchMode m : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        out.add(Arguments.of(q, m));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{1} {0}")
  @MethodSource("rankedQueries")
  void oneRequestOverEveryRepositoryAnswersAsEachAloneMerged(String query, SearchMode mode)
      throws IOException {
    List<Hit> together;
    try (GroupSearch all = two.search(RepositoryFilter.ALL, withTrees())) {
      together = all.search(query, ranked(mode));
    }
    List<Hit> merged;
    try (GroupSearch each = GroupSearch.open(new MergingGroup(two), withTrees())) {
      merged = each.search(query, ranked(mode));
    }
    assertThat(together).isNotEmpty();
    assertThat(together).allSatisfy(h -> assertThat(h.repo()).isIn(trees.keySet()));
    assertThat(describe(together)).isEqualTo(describe(merged));
  }

  @ParameterizedTest(name = "{1} {0}")
  @MethodSource("rankedQueries")
  void theNumberOfShardsChangesNoScore(String query, SearchMode mode) throws IOException {
    List<Hit> onTwo;
    List<Hit> onThree;
    try (GroupSearch a = two.search(RepositoryFilter.ALL, withTrees());
        GroupSearch b = three.search(RepositoryFilter.ALL, withTrees())) {
      onTwo = a.search(query, ranked(mode));
      onThree = b.search(query, ranked(mode));
    }
    if (mode == SearchMode.LEXICAL) {
      assertThat(describe(onThree)).isEqualTo(describe(onTwo));
    } else {
      // k-NN is approximate per shard (one HNSW graph per shard: see SameAnswersTest); the
      // vectors found by both have the same cosine, and most hits are the same.
      List<String> common = new ArrayList<>(places(onThree));
      common.retainAll(places(onTwo));
      assertThat(common.size()).as("%s%nagainst%n%s", describe(onThree), describe(onTwo))
          .isGreaterThanOrEqualTo((int) Math.ceil(0.7 * onTwo.size()));
    }
  }

  static Stream<Arguments> literalQueries() {
    List<Arguments> out = new ArrayList<>();
    for (String q : List.of("IndexState", "indexstate", "return", "(", "\u00dcn\u00efc\u00f6d\u00e9",
        "RelativePath.normalise", "no such text anywhere", "e")) {
      out.add(Arguments.of(q, false));
      out.add(Arguments.of(q, true));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} caseSensitive={1}")
  @MethodSource("literalQueries")
  void literalAnswersAreEachRepositorysOwnWithOrWithoutTheTrees(String query,
      boolean caseSensitive) throws IOException {
    SearchOpts opts = SearchOpts.builder().limit(400).mode(SearchMode.INDEXED_LITERAL)
        .caseSensitive(caseSensitive).build();
    List<String> alone = new ArrayList<>();
    for (Map.Entry<String, Path> e : new java.util.TreeMap<>(trees).entrySet()) {
      OpenSearchOptions o = TestCluster.options().indexName(null).organisation("t1")
          .repository(e.getKey()).build();
      try (HybridIndex one = OpenSearchStore.openIndex(TestCluster.local(e.getValue()), o)) {
        for (Hit h : one.search(query, opts)) {
          alone.addAll(describe(List.of(h.withRepo(e.getKey()))));
        }
      }
    }
    try (GroupSearch withTrees = two.search(RepositoryFilter.ALL, withTrees());
        GroupSearch stored = two.search(RepositoryFilter.ALL, withoutTrees())) {
      SearchResult fromTrees = withTrees.searchResult(query, opts);
      SearchResult fromCopies = stored.searchResult(query, opts);
      // Repository by repository in name order, each one's own answer, up to the limit.
      List<String> expected = alone.subList(0, Math.min(alone.size(), opts.limit()));
      assertThat(describe(fromTrees.hits())).isEqualTo(expected);
      assertThat(describe(fromCopies.hits())).isEqualTo(expected);
      assertThat(fromTrees.truncated()).isEqualTo(alone.size() > opts.limit());
      assertThat(withTrees.verification()).containsOnlyKeys(trees.keySet())
          .allSatisfy((k, v) -> assertThat(v).isEqualTo(Verification.TREE));
      assertThat(stored.verification())
          .allSatisfy((k, v) -> assertThat(v).isEqualTo(Verification.STORED));
    }
  }

  @Test
  void aRepositoryFilterSelectsByNameAndGlobAndKeepsTheScores() throws IOException {
    try (GroupSearch all = two.search(RepositoryFilter.ALL, withTrees());
        GroupSearch core = two.search(RepositoryFilter.of(List.of("core-*", "!core-tool")),
            withTrees())) {
      List<Hit> everywhere = all.search("IndexState", SearchOpts.builder().limit(50).mode(SearchMode.LEXICAL).auxiliaryWeight(1.0).build());
      List<Hit> some = core.search("IndexState", SearchOpts.builder().limit(50).mode(SearchMode.LEXICAL).auxiliaryWeight(1.0).build());
      assertThat(core.group().repositories()).containsOnlyKeys("core-repository", "core-index");
      assertThat(some).isNotEmpty().allSatisfy(h -> assertThat(h.repo())
          .isIn("core-repository", "core-index"));
      // The statistics are every allowed repository's: a hit scores the same either way.
      Map<String, Double> raw = new LinkedHashMap<>();
      everywhere.forEach(h -> raw.put(h.repo() + ":" + h.path() + ":" + h.line(),
          h.lexical().score()));
      for (Hit h : some) {
        Double e = raw.get(h.repo() + ":" + h.path() + ":" + h.line());
        if (e != null) {
          assertThat(h.lexical().score()).isEqualTo(e);
        }
      }
    }
  }

  @Test
  void aHybridSearchSendsItsRequestsTogetherAndReadsTheRecordsWithoutASearch()
      throws IOException {
    OpenSearchOptions t1 = TestCluster.options().indexName(null).organisation("t1").build();
    for (String query : List.of("LruCache", "load report json")) {
      try (Relay relay = new Relay(TestCluster.url(0), Relay.FORWARD, Relay.AS_IS);
          Organisation org = Organisation.connect(t1.toBuilder().urls(List.of(relay.url()))
              .build(), RepositoryFilter.ALL);
          GroupSearch search = org.search(RepositoryFilter.ALL, withoutTrees())) {
        relay.requests.clear();
        List<Hit> hits = search.search(query, ranked(SearchMode.HYBRID));
        assertThat(hits).isNotEmpty();
        // The records: the layout from the cluster state, the repositories' records in one
        // search of the one index; the BM25 request (and the identifier guard's, for a name)
        // with the k-NN one in one _msearch.
        assertThat(relay.requests).as(query)
            .filteredOn(r -> r.endsWith("/_search") || r.endsWith("/_msearch"))
            .containsExactly("POST /" + Organisation.indexName("t1") + "/_search",
                "POST /" + Organisation.indexName("t1") + "/_msearch");
        assertThat(relay.requests).as(query).filteredOn(r -> r.endsWith("/_mapping"))
            .hasSize(1);
        // The first stored contents with every candidate's entry: one get.
        assertThat(relay.requests).as(query).filteredOn(r -> r.endsWith("/_mget"))
            .hasSize(1);
      }
    }
  }

  private static List<String> places(List<Hit> hits) {
    return hits.stream().map(h -> h.repo() + ":" + h.path() + ":" + h.line()).toList();
  }

  private static List<String> describe(List<Hit> hits) {
    List<String> out = new ArrayList<>();
    for (Hit h : hits) {
      out.add(h.repo() + ":" + h.path() + ":" + h.line() + "-" + h.endLine() + ":" + h.column()
          + " " + h.symbol() + " " + String.format("%.6f", h.score()) + " | " + h.snippet());
    }
    return out;
  }
}
