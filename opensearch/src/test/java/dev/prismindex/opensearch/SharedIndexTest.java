package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.GroupSearch;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An organisation's repositories side by side in its one index, on the two-node test cluster: a
 * run of one repository (a full rebuild included) replaces its documents and no other's, and
 * dropping the last repository deletes the index.
 */
class SharedIndexTest {

  @TempDir
  Path tmp;

  private Path repo(String name, Map<String, String> files) throws IOException {
    Path root = tmp.resolve(name);
    for (Map.Entry<String, String> f : files.entrySet()) {
      write(root, f.getKey(), f.getValue());
    }
    return root;
  }

  private static void write(Path root, String path, String text) throws IOException {
    Path p = root.resolve(path);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  @Test
  void aRunOfOneRepositoryReplacesItsDocumentsOnly() throws Exception {
    Path one = repo("one", Map.of("src/a.py", "def apple_marker():\n    return 1\n",
        "src/b.go", "package b\n\nfunc Banana() int { return 2 }\n"));
    Path two = repo("two", Map.of("old.py", "def old_marker():\n    return 3\n",
        "keep.ts", "export function cherry(): number {\n  return 4;\n}\n"));
    Path three = repo("three", Map.of("c.md", "# Durian\n\nplain prose about durian_marker\n"));
    List<Organisation.Source> sources = List.of(new Organisation.Source("one", one),
        new Organisation.Source("two", two), new Organisation.Source("three", three));
    OpenSearchOptions t8 = TestCluster.options().indexName(null).organisation("t8").build();
    assertThat(Organisation.index(sources, t8, TestCluster::local, RefreshOptions.INCREMENTAL,
        2, 2)).allSatisfy(o -> assertThat(o.error()).isNull());
    String index = Organisation.indexName("t8");
    try (Organisation org = Organisation.connect(t8, RepositoryFilter.ALL)) {
      Cluster c = org.cluster();
      Map<String, Long> oneBefore = versions(c, index, "one");
      Map<String, Long> threeBefore = versions(c, index, "three");
      Map<String, Long> twoBefore = versions(c, index, "two");
      assertThat(oneBefore).isNotEmpty().allSatisfy((id, v) -> assertThat(id).startsWith("one:"));
      assertThat(twoBefore).isNotEmpty();

      // Repository "two" changes and is rebuilt in full: its documents are replaced, no other's.
      Files.delete(two.resolve("old.py"));
      write(two, "new.py", "def new_marker():\n    return 5\n");
      assertThat(Organisation.index(List.of(new Organisation.Source("two", two)), t8,
          TestCluster::local, RefreshOptions.FULL, 1, 1))
          .allSatisfy(o -> assertThat(o.error()).isNull());
      assertThat(versions(c, index, "one")).isEqualTo(oneBefore);
      assertThat(versions(c, index, "three")).isEqualTo(threeBefore);
      Map<String, Long> twoAfter = versions(c, index, "two");
      assertThat(twoAfter).isNotEmpty().allSatisfy((id, v) -> {
        assertThat(id).startsWith("two:");
        assertThat(v).as("rewritten: %s", id).isNotEqualTo(twoBefore.get(id));
      });
      try (GroupSearch search = org.search(RepositoryFilter.ALL, GroupSearch.Options.defaults())) {
        SearchOpts literal = SearchOpts.builder().limit(10).mode(SearchMode.INDEXED_LITERAL)
            .build();
        assertThat(places(search.search("old_marker", literal))).isEmpty();
        assertThat(places(search.search("new_marker", literal))).containsExactly("two:new.py:1");
        assertThat(places(search.search("apple_marker", literal))).containsExactly("one:src/a.py:1");
        assertThat(places(search.search("durian_marker", literal))).containsExactly("three:c.md:3");
      }
      assertThat(org.status(RepositoryFilter.ALL)).extracting(s -> s.name() + " " + s.state()
          + " " + s.files()).containsExactly("one ready 2", "three ready 1", "two ready 2");

      // An incremental run of "one" rewrites its changed file's documents only.
      write(one, "src/b.go", "package b\n\nfunc Banana() int { return 6 }\n");
      assertThat(Organisation.index(List.of(new Organisation.Source("one", one)), t8,
          TestCluster::local, RefreshOptions.INCREMENTAL, 1, 1))
          .allSatisfy(o -> assertThat(o.error()).isNull());
      Map<String, Long> oneAfter = versions(c, index, "one");
      assertThat(oneAfter).containsEntry(Slice.id("one", ClusterIds.file("src/a.py")),
          oneBefore.get(Slice.id("one", ClusterIds.file("src/a.py"))));
      assertThat(oneAfter.get(Slice.id("one", ClusterIds.file("src/b.go"))))
          .isNotEqualTo(oneBefore.get(Slice.id("one", ClusterIds.file("src/b.go"))));
      assertThat(versions(c, index, "two")).isEqualTo(twoAfter);
      assertThat(versions(c, index, "three")).isEqualTo(threeBefore);

      // Dropping a repository deletes its documents; the last one's drop deletes the index.
      for (Organisation.Source s : sources) {
        try (OpenSearchStore store = OpenSearchStore.connect(s.root(),
            t8.toBuilder().repository(s.name()).build())) {
          assertThat(store.drop()).isTrue();
        }
        assertThat(versions(c, index, s.name())).isEmpty();
        boolean last = s == sources.get(sources.size() - 1);
        assertThat(c.send("GET", "/" + index, Map.of(), null).status())
            .isEqualTo(last ? 404 : 200);
        if (!last) {
          assertThat(versions(c, index, "three")).isEqualTo(threeBefore);
        }
      }
    } finally {
      try (Organisation o = Organisation.connect(t8, RepositoryFilter.ALL)) {
        o.cluster().send("DELETE", "/" + index, Map.of(), null);
      }
    }
  }

  @Test
  void theFirstLoadOfAnOrganisationEndsMergedWithItsReplicasAndRefreshRestored() throws Exception {
    List<Organisation.Source> sources = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      sources.add(new Organisation.Source("r" + i, repo("r" + i, Map.of("a" + i + ".py",
          "def f" + i + "():\n    return " + i + "\n", "b" + i + ".go",
          "package b\n\nfunc G" + i + "() int { return " + i + " }\n"))));
    }
    OpenSearchOptions t10 = TestCluster.options().indexName(null).organisation("t10").build();
    String index = Organisation.indexName("t10");
    try (Organisation org = Organisation.connect(t10, RepositoryFilter.ALL)) {
      Cluster c = org.cluster();
      try {
        assertThat(Organisation.index(sources, t10, TestCluster::local,
            RefreshOptions.INCREMENTAL, 2, 2)).allSatisfy(o -> assertThat(o.error()).isNull());
        // Six runs, each ending with a refresh (and its record written with refresh=true): one
        // segment a shard only because the load merged them.
        assertThat(segmentsPerPrimary(c, index)).hasSize(2).allSatisfy((shard, n) ->
            assertThat(n).as("segments of primary %s", shard).isEqualTo(1));
        assertThat(setting(c, index, "number_of_replicas")).isEqualTo("1");
        assertThat(setting(c, index, "refresh_interval")).isEmpty();

        // A load cut short leaves the bulk settings: the next load finishes it, even of one.
        ObjectNode bulk = Cluster.JSON.createObjectNode();
        bulk.putObject("index").put("number_of_replicas", 0).put("refresh_interval", "-1");
        c.call("PUT", "/" + index + "/_settings", Map.of(), bulk);
        assertThat(Organisation.index(sources.subList(0, 1), t10, TestCluster::local,
            RefreshOptions.INCREMENTAL, 1, 1)).allSatisfy(o -> assertThat(o.error()).isNull());
        assertThat(setting(c, index, "number_of_replicas")).isEqualTo("1");
        assertThat(setting(c, index, "refresh_interval")).isEmpty();

        // An update of a live index keeps its settings.
        ObjectNode own = Cluster.JSON.createObjectNode();
        own.putObject("index").put("refresh_interval", "5s");
        c.call("PUT", "/" + index + "/_settings", Map.of(), own);
        write(sources.get(0).root(), "c.py", "def later():\n    return 7\n");
        assertThat(Organisation.index(sources.subList(0, 1), t10, TestCluster::local,
            RefreshOptions.INCREMENTAL, 1, 1)).allSatisfy(o -> assertThat(o.error()).isNull());
        assertThat(setting(c, index, "refresh_interval")).isEqualTo("5s");
        assertThat(setting(c, index, "number_of_replicas")).isEqualTo("1");
      } finally {
        c.send("DELETE", "/" + index, Map.of(), null);
      }
    }
  }

  private static String setting(Cluster c, String index, String name) throws IOException {
    return c.call("GET", "/" + index + "/_settings", Map.of(), null).path(index)
        .path("settings").path("index").path(name).asText("");
  }

  /** The live segments of each primary shard. */
  private static Map<String, Integer> segmentsPerPrimary(Cluster c, String index)
      throws IOException {
    Map<String, Integer> out = new TreeMap<>();
    JsonNode shards = c.call("GET", "/" + index + "/_segments", Map.of(), null).path("indices")
        .path(index).path("shards");
    for (Map.Entry<String, JsonNode> e : shards.properties()) {
      for (JsonNode copy : e.getValue()) {
        if (copy.path("routing").path("primary").asBoolean()) {
          out.put(e.getKey(), copy.path("num_search_segments").asInt());
        }
      }
    }
    return out;
  }

  /** A repository's documents in the index: id to sequence number (a write changes it). */
  private static Map<String, Long> versions(Cluster c, String index, String repository)
      throws IOException {
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", 10_000);
    body.put("seq_no_primary_term", true);
    body.put("_source", false);
    body.putObject("query").putObject("term").put(IndexLayout.REPOSITORY, repository);
    Cluster.Reply r = c.send("POST", "/" + index + "/_search",
        Map.of("ignore_unavailable", "true", "allow_no_indices", "true"), body);
    Map<String, Long> out = new TreeMap<>();
    for (JsonNode h : r.body().path("hits").path("hits")) {
      out.put(h.path("_id").asText(), h.path("_seq_no").asLong());
    }
    return out;
  }

  private static List<String> places(List<Hit> hits) {
    return hits.stream().map(h -> h.repo() + ":" + h.path() + ":" + h.line()).toList();
  }
}
