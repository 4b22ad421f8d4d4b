package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.embed.HashingEmbedder;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.GroupSearch;
import dev.prismindex.engine.GroupSearch.Verification;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.engine.spi.VectorCodes;
import dev.prismindex.engine.spi.VectorQuery;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.index.VectorSimilarityFunction;
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

  /**
   * The k-NN candidates of one request over the organisation (or some of its repositories) are
   * the exact nearest chunks of the query, whatever the HNSW graphs of the shards' segments look
   * like (they depend on how the load's bulks interleaved): the cluster's own score of each chunk
   * (Lucene's cosine of the int8 codes), best first, ties by path and ordinal, the first {@code
   * fetch}, then rescored by the float query's cosine. A request that searched the graph (the
   * approximate search, with as many candidates as it returns) missed some of them; a repository
   * searched alone (a filter accepting at most {@code k} chunks of a segment) was exact, so the
   * two disagreed.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("knnGroups")
  void aKnnRequestFindsTheExactNearestChunksOfItsRepositories(String filter) throws IOException {
    RepositoryFilter repositories = filter.equals("*") ? RepositoryFilter.ALL
        : RepositoryFilter.of(List.of(filter));
    List<Object[]> every = new ArrayList<>(); // repository, path, ordinal, int8 vector
    ObjectNode body = Organisation.object();
    body.put("size", 10_000);
    body.putObject("query").putObject("bool").putArray("filter").addObject().putObject("term")
        .put(IndexLayout.TYPE, IndexLayout.TYPE_CHUNK);
    body.putArray("_source").add(IndexLayout.REPOSITORY).add(IndexLayout.PATH)
        .add(IndexLayout.ORDINAL).add(IndexLayout.VECTOR);
    for (JsonNode h : two.cluster().call("POST", "/" + Organisation.indexName("t1") + "/_search",
        Map.of(), body).path("hits").path("hits")) {
      JsonNode src = h.path("_source");
      String repo = src.path(IndexLayout.REPOSITORY).asText();
      if (!repositories.matches(repo)) {
        continue;
      }
      JsonNode v = src.path(IndexLayout.VECTOR);
      byte[] codes = new byte[v.size()];
      for (int i = 0; i < codes.length; i++) {
        codes[i] = (byte) v.get(i).asInt();
      }
      every.add(new Object[] {repo, src.path(IndexLayout.PATH).asText(),
          src.path(IndexLayout.ORDINAL).asInt(), codes});
    }
    assertThat(every).hasSizeGreaterThan(8);
    HashingEmbedder embedder = new HashingEmbedder();
    ClusterGroup group = two.group(repositories);
    group.repositories(); // as a search does first
    for (String query : List.of("retry with backoff", "where is the stale index check",
        "literal pattern", "the backend is not fresh", "load report json", "relative path",
        "close the index", "parse the options", "count the files", "snippet of a line")) {
      float[] unit = embedder.embedQuery(query);
      double norm = 0;
      for (float x : unit) {
        norm += x * x;
      }
      for (int i = 0; i < unit.length; i++) {
        unit[i] = (float) (unit[i] / Math.sqrt(norm));
      }
      byte[] codes = VectorCodes.int8(unit);
      int fetch = 8;
      List<Object[]> byCluster = new ArrayList<>(every);
      Map<Object[], Float> score = new java.util.IdentityHashMap<>();
      byCluster.forEach(c -> score.put(c, VectorSimilarityFunction.COSINE.compare(codes,
          (byte[]) c[3])));
      byCluster.sort(Comparator.comparingDouble((Object[] c) -> score.get(c)).reversed()
          .thenComparing(c -> (String) c[1]).thenComparingInt(c -> (Integer) c[2]));
      List<Object[]> fetched = new ArrayList<>(byCluster.subList(0, Math.min(fetch,
          byCluster.size())));
      fetched.sort(Comparator.comparingDouble((Object[] c) -> VectorCodes.cosine(unit,
          (byte[]) c[3])).reversed().thenComparing(c -> (String) c[1])
          .thenComparingInt(c -> (Integer) c[2]).thenComparing(c -> (String) c[0]));
      List<String> expected = fetched.stream().map(c -> c[0] + ":" + c[1] + ":" + c[2])
          .toList();
      List<String> found = new ArrayList<>();
      try (StoreReader reader = group.reader()) {
        for (Candidate c : reader.nearest(new VectorQuery(unit, fetch, fetch, null, p -> true))) {
          ChunkDoc d = reader.chunk(c.chunk());
          found.add(d.repository() + ":" + d.path() + ":" + d.ordinal());
        }
      }
      assertThat(found).as("%s in %s", query, filter).isEqualTo(expected);
    }
  }

  static Stream<String> knnGroups() {
    return Stream.of("*", "core-*", "!core-repository");
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
    // The k-NN requests are exact (a few chunks: aKnnRequestFindsTheExactNearestChunks...), so
    // the graphs of two or three shards change no semantic hit either.
    assertThat(describe(onThree)).isEqualTo(describe(onTwo));
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
      for (Fusion fusion : List.of(Fusion.rrf(), Fusion.learned())) {
        try (Relay relay = new Relay(TestCluster.url(0), Relay.FORWARD, Relay.AS_IS);
            Organisation org = Organisation.connect(t1.toBuilder().urls(List.of(relay.url()))
                .build(), RepositoryFilter.ALL);
            GroupSearch search = org.search(RepositoryFilter.ALL, withoutTrees())) {
          relay.requests.clear();
          List<Hit> hits = search.search(query, SearchOpts.builder().limit(10)
              .mode(SearchMode.HYBRID).auxiliaryWeight(1.0).fusion(fusion).build());
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
          // The first stored contents with every candidate's entry: one get. The learned ranker
          // reads the file of every candidate of the union (up to about 100), announced in the
          // hand-set stack's order: their contents in batches that double (16, 32, 64), then its
          // own hits' that those lack; never a get a file (20 gets without the announcement).
          assertThat(relay.requests).as(query + ", " + fusion)
              .filteredOn(r -> r.endsWith("/_mget")).hasSizeBetween(1, fusion.ranker() ? 4 : 1);
        }
      }
    }
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
