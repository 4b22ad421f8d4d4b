package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ranked search reads the manifest entries of its candidates' files in one {@code _mget}, not
 * one {@code GET} per file: the requests are counted by a {@link Relay} in front of the real
 * cluster.
 */
class ManifestFetchTest {

  @TempDir
  Path root;

  @Test
  void theCandidatesEntriesAreReadInOneRequest() throws Exception {
    for (int i = 0; i < 12; i++) {
      Path p = root.resolve("src/Widget" + i + ".java");
      Files.createDirectories(p.getParent());
      Files.writeString(p, "class Widget" + i + " {\n  void frobnicate() { frobnicate(); }\n}\n",
          StandardCharsets.UTF_8);
    }
    String name = TestCluster.newIndexName();
    try (Relay relay = new Relay(TestCluster.url(0), Relay.FORWARD, Relay.AS_IS);
        HybridIndex index = TestCluster.open(root, TestCluster.options().indexName(name).build());
        HybridIndex relayed = TestCluster.open(root, OpenSearchOptions.builder(relay.url())
            .indexName(name).retries(0).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        relay.requests.clear();
        List<Hit> hits = relayed.search("frobnicate", new SearchOpts(10, mode, null));
        assertThat(hits).as(mode.name()).hasSize(10);
        assertThat(relay.requests).as(mode.name()).noneMatch(r -> r.startsWith("GET /"
            + name + "/_doc/f:"));
        assertThat(relay.requests).as(mode.name()).filteredOn(r -> r.contains("/_mget"))
            .hasSize(1);
      }
    }
  }
}
