package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.embed.HashingEmbedder;
import dev.prismindex.engine.GroupSearch;
import dev.prismindex.engine.Hit;
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
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Access to an organisation's repositories (a caller's allowed list, applied in every request the
 * cluster runs) and the bound on bulk requests of indexing many repositories at once, on the
 * two-node test cluster.
 */
class OrganisationAccessTest {

  @TempDir
  Path tmp;

  private static final String MARKER = "zebra_quokka_marker";

  private Path repo(String name, Map<String, String> files) throws IOException {
    Path root = tmp.resolve(name.replace('/', '_'));
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path p = root.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
    }
    return root;
  }

  private static OpenSearchOptions.Builder org(String name) {
    return TestCluster.options().indexName(null).organisation(name);
  }

  private List<Organisation.Source> allowedRepos() throws IOException {
    return List.of(
        new Organisation.Source("alpha", repo("alpha", Map.of("src/a.py",
            "def shared_word():\n    return 'alpha'\n", "src/util.go",
            "package util\n\n// SharedWord is shared.\nfunc SharedWord() int { return 1 }\n"))),
        new Organisation.Source("beta-one", repo("beta-one", Map.of("b.ts",
            "export function sharedWord(): number {\n  return 2;\n}\n"))),
        new Organisation.Source("beta-two", repo("beta-two", Map.of("c.py",
            "class Other:\n    def unrelated(self):\n        return shared_word()\n"))));
  }

  @Test
  void aForbiddenRepositoryNeverAppearsNotEvenInCounts() throws Exception {
    List<Organisation.Source> allowed = allowedRepos();
    Path secretRoot = repo("secret", Map.of("vault/keys.py", "# shared_word shared_word\n"
        + MARKER + " = 'do not show'\n\ndef shared_word():\n    return " + MARKER + "\n",
        "vault/notes.md", "shared_word " + MARKER + " shared_word\n"));
    Files.write(secretRoot.resolve("vault/blob.bin"), new byte[] {'x', 0, 0, 1, 2, 'y'});
    List<Organisation.Source> withSecret = new ArrayList<>(allowed);
    withSecret.add(new Organisation.Source("secret", secretRoot));
    OpenSearchOptions t3 = org("t3").build();
    assertThat(Organisation.index(withSecret, t3, TestCluster::local, RefreshOptions.INCREMENTAL,
        2, 2)).allSatisfy(o -> assertThat(o.error()).isNull());
    Map<String, Path> trees = new LinkedHashMap<>();
    withSecret.forEach(s -> trees.put(s.name(), s.root()));
    GroupSearch.Options options = GroupSearch.Options.defaults()
        .withEmbedder(new HashingEmbedder()).withTrees(trees);
    RepositoryFilter grant = RepositoryFilter.of(List.of("alpha", "beta-*"));
    try (Relay relay = new Relay(TestCluster.url(0), Relay.FORWARD, Relay.AS_IS);
        Organisation restricted = Organisation.connect(t3.toBuilder().urls(List.of(relay.url()))
            .build(), grant);
        Organisation everything = Organisation.connect(t3, RepositoryFilter.ALL)) {
      for (RepositoryFilter filter : List.of(RepositoryFilter.ALL,
          RepositoryFilter.of(List.of("secret")), RepositoryFilter.of(List.of("*")),
          RepositoryFilter.of(List.of("secret", "alpha")), RepositoryFilter.of(List.of("s*")))) {
        assertThat(restricted.status(filter)).extracting(Organisation.RepositoryStatus::name)
            .doesNotContain("secret");
        try (GroupSearch search = restricted.search(filter, options)) {
          assertThat(search.group().repositories()).doesNotContainKey("secret");
          for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC,
              SearchMode.HYBRID, SearchMode.INDEXED_LITERAL)) {
            for (String q : List.of(MARKER, "shared_word", "do not show")) {
              SearchResult r = search.searchResult(q, SearchOpts.builder().limit(50).mode(mode)
                  .build());
              assertThat(r.hits()).allSatisfy(h -> {
                assertThat(h.repo()).isNotEqualTo("secret");
                assertThat(h.snippet()).doesNotContain(MARKER);
              });
              assertThat(r.notSearched()).as("counts of skipped files").isEmpty();
              if (q.equals(MARKER) && !mode.needsSemantic()) {
                // (k-NN always finds neighbours: allowed ones, checked above.)
                assertThat(r.hits()).isEmpty();
                assertThat(r.truncated()).isFalse();
              }
            }
          }
        }
      }
      assertThat(restricted.status(RepositoryFilter.ALL))
          .extracting(Organisation.RepositoryStatus::name)
          .containsExactly("alpha", "beta-one", "beta-two");
      assertThat(restricted.status(RepositoryFilter.ALL).stream()
          .mapToLong(Organisation.RepositoryStatus::files).sum()).isEqualTo(4);
      // The statistics are the shared index's (they count the secret repository's terms, as any
      // filter inside one index does): the caller gets the hits and raw BM25 scores of a caller
      // who may see everything and leaves the secret repository out.
      SearchOpts lexical = SearchOpts.builder().limit(20).mode(SearchMode.LEXICAL)
          .auxiliaryWeight(1.0).build();
      List<String> restrictedScores;
      List<String> everythingScores;
      try (GroupSearch a = restricted.search(RepositoryFilter.ALL, options);
          GroupSearch c = everything.search(RepositoryFilter.of(List.of("!secret")), options)) {
        restrictedScores = raw(a.search("shared_word", lexical));
        everythingScores = raw(c.search("shared_word", lexical));
        SearchResult unrestricted = everything.search(RepositoryFilter.ALL, options)
            .searchResult(MARKER, SearchOpts.builder().limit(50)
                .mode(SearchMode.INDEXED_LITERAL).build());
        assertThat(unrestricted.hits()).as("the test's marker is there to be found").isNotEmpty();
        assertThat(unrestricted.notSearched()).containsEntry("binary", 1);
      }
      assertThat(restrictedScores).isNotEmpty().isEqualTo(everythingScores);
      assertThat(relay.requests).isNotEmpty()
          .allSatisfy(r -> assertThat(r).doesNotContain("secret"));
      assertThat(relay.bodies).as("every request that searches names the allowed repositories")
          .filteredOn(b -> b.contains("\"query\""))
          .isNotEmpty().allSatisfy(b -> assertThat(b).contains("beta-*"));
    } finally {
      try (Organisation o = Organisation.connect(t3, RepositoryFilter.ALL)) {
        o.cluster().send("DELETE", "/" + Organisation.indexName("t3"), Map.of(), null);
      }
    }
  }

  private static List<String> raw(List<Hit> hits) {
    return hits.stream().map(h -> h.repo() + ":" + h.path() + ":" + h.line() + " "
        + h.lexical().score()).toList();
  }

  /** Candidate paths and stored contents the cluster's replies hand over, counted at a relay. */
  private static final class Reads implements Relay.Rewrite {
    final AtomicLong paths = new AtomicLong();
    final AtomicLong contents = new AtomicLong();

    @Override
    public byte[] reply(String request, byte[] reply) {
      try {
        JsonNode json = Cluster.JSON.readTree(reply);
        List<JsonNode> searches = new ArrayList<>();
        json.path("responses").forEach(searches::add);
        searches.add(json);
        for (JsonNode search : searches) {
          for (JsonNode hit : search.path("hits").path("hits")) {
            boolean record = hit.path("_source").path(IndexLayout.TYPE).asText()
                .equals(IndexLayout.META_TYPE);
            if (!record && (hit.path("_source").has(IndexLayout.PATH)
                || hit.path("sort").path(0).isTextual())) {
              paths.incrementAndGet();
            }
          }
        }
        for (JsonNode doc : json.path("docs")) {
          if (doc.path("_source").has(IndexLayout.CONTENT)) {
            contents.incrementAndGet();
          }
        }
      } catch (IOException e) {
        // Not JSON: nothing read.
      }
      return reply;
    }
  }

  @Test
  void aLimitedLiteralSearchStopsEarly() throws Exception {
    List<Organisation.Source> sources = new ArrayList<>();
    for (int r = 0; r < 6; r++) {
      Map<String, String> files = new LinkedHashMap<>();
      for (int f = 0; f < 30; f++) {
        files.put("src/f" + (100 + f) + ".txt", "first line\nthe needle_word here\n");
      }
      sources.add(new Organisation.Source("early-" + r, repo("early-" + r, files)));
    }
    OpenSearchOptions t7 = org("t7").build();
    assertThat(Organisation.index(sources, t7, TestCluster::local, RefreshOptions.INCREMENTAL,
        2, 2)).allSatisfy(o -> assertThat(o.error()).isNull());
    Reads reads = new Reads();
    try (Relay relay = new Relay(TestCluster.url(0), Relay.FORWARD, reads);
        Organisation org = Organisation.connect(t7.toBuilder().urls(List.of(relay.url()))
            .build(), RepositoryFilter.ALL);
        GroupSearch search = org.search(RepositoryFilter.ALL, GroupSearch.Options.defaults())) {
      SearchOpts five = SearchOpts.builder().limit(5).mode(SearchMode.INDEXED_LITERAL).build();
      SearchResult r = search.searchResult("needle_word", five);
      assertThat(r.hits()).extracting(h -> h.repo() + ":" + h.path() + ":" + h.line())
          .containsExactly("early-0:src/f100.txt:2", "early-0:src/f101.txt:2",
              "early-0:src/f102.txt:2", "early-0:src/f103.txt:2", "early-0:src/f104.txt:2");
      assertThat(r.truncated()).isTrue();
      assertThat(reads.paths.get()).as("candidates listed: the first repository's only")
          .isEqualTo(30);
      assertThat(reads.contents.get()).as("stored contents read: fewer than its candidates")
          .isLessThan(30).isGreaterThanOrEqualTo(6);
      SearchResult all = search.searchResult("needle_word", SearchOpts.builder().limit(1_000)
          .mode(SearchMode.INDEXED_LITERAL).build());
      assertThat(all.hits()).hasSize(180);
      assertThat(all.truncated()).isFalse();
      assertThat(all.hits().subList(0, 5)).isEqualTo(r.hits());
    } finally {
      try (Organisation o = Organisation.connect(t7, RepositoryFilter.ALL)) {
        o.cluster().send("DELETE", "/" + Organisation.indexName("t7"), Map.of(), null);
      }
    }
  }

  @Test
  void indexingManyRepositoriesKeepsTheBoundOnBulkRequestsInFlight() throws Exception {
    List<Organisation.Source> sources = new ArrayList<>();
    for (int r = 0; r < 6; r++) {
      Map<String, String> files = new LinkedHashMap<>();
      for (int f = 0; f < 25; f++) {
        files.put("pkg/file" + f + ".py", ("def function_" + r + "_" + f + "(x):\n"
            + "    return x * " + f + "\n\n").repeat(8));
      }
      sources.add(new Organisation.Source("many-" + r, repo("many-" + r, files)));
    }
    try (Relay relay = new Relay(TestCluster.url(0), Relay.FORWARD, Relay.AS_IS)) {
      OpenSearchOptions o = org("t6").urls(List.of(relay.url())).bulkBytes(2048).build();
      List<Organisation.Outcome> done = Organisation.index(sources, o, TestCluster::local,
          RefreshOptions.INCREMENTAL, 4, 2);
      assertThat(done).allSatisfy(d -> assertThat(d.error()).isNull());
      assertThat(relay.requests.stream().filter(Relay::bulk).count())
          .as("many bulk requests").isGreaterThan(20);
      assertThat(relay.mostBulksInFlight.get()).as("runs overlap, within the bound")
          .isEqualTo(2);
      try (Organisation org = Organisation.connect(o, RepositoryFilter.ALL)) {
        assertThat(org.status(RepositoryFilter.ALL)).hasSize(6)
            .allSatisfy(s -> assertThat(s.files()).isEqualTo(25));
        org.cluster().send("DELETE", "/" + Organisation.indexName("t6"), Map.of(), null);
      }
    }
  }
}
