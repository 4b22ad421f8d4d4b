package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.index.IndexState;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data node stopped while a run is sending bulk requests: no file the cluster acknowledged
 * loses a document (every FILE document has all its chunks), and running again completes the
 * index on the surviving node, with the local engine's literal answers.
 */
class NodeLossTest {

  @TempDir
  Path root;

  @Test
  void aNodeStoppedMidBulkLosesNoAcknowledgedFileAndTheNextRunCompletesTheIndex()
      throws Exception {
    Path sources = Path.of("..", "core", "src", "main", "java");
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        Path to = root.resolve(sources.relativize(f).toString());
        Files.createDirectories(to.getParent());
        Files.copy(f, to);
      }
    }
    OpenSearchRunner runner = TestCluster.runner();
    int victim = runner.getNodeIndex(runner.nonMasterNode());
    int survivor = 1 - victim;
    String name = TestCluster.newIndexName();
    OpenSearchOptions options = OpenSearchOptions.builder(TestCluster.url(survivor))
        .indexName(name).shards(2).replicas(1).bulkBytes(16 * 1024)
        .retries(3).timeout(Duration.ofSeconds(20)).build();
    AtomicBoolean stopped = new AtomicBoolean();
    OpenSearchStore store = OpenSearchStore.connect(root, options);
    try (HybridIndex index = HybridIndex.open(TestCluster.local(root), store);
        Cluster probe = Cluster.connect(options)) {
      Thread stopper = new Thread(() -> {
        try {
          while (count(probe, name, IndexLayout.TYPE_FILE) < 20) {
            Thread.sleep(20);
          }
          runner.getNode(victim).close();
          stopped.set(true);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      stopper.start();
      try {
        index.refresh(RefreshOptions.INCREMENTAL);
      } catch (IOException e) {
        // a refused bulk: the run failed, what was acknowledged must be whole
      }
      stopper.join();
      assertThat(stopped).isTrue();

      probe.call("POST", "/" + name + "/_refresh", Map.of(), null);
      Map<String, FileEntry> acknowledged = ClusterManifest.files(probe,
          new Slice(name, Organisation.nameOf(root)), null);
      assertThat(acknowledged).isNotEmpty();
      for (FileEntry e : acknowledged.values()) {
        assertThat(chunksOf(probe, name, e.path()))
            .as("chunks of %s", e.path()).isEqualTo(e.chunks());
      }

      IndexRunStats again = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(again.added() + again.changed() + again.unchanged()).isPositive();
      assertThat(index.status().state()).isEqualTo(IndexState.READY);
      try (HybridIndex local = HybridIndex.open(TestCluster.local(root))) {
        local.refresh(RefreshOptions.FULL);
        for (String q : List.of("IndexState", "private static final", "Nullable")) {
          SearchOpts opts = new SearchOpts(1000, SearchMode.INDEXED_LITERAL, null);
          assertThat(describe(index.search(q, opts))).isEqualTo(describe(local.search(q, opts)));
        }
        assertThat(index.status().diagnostics().entries())
            .isEqualTo(local.engineStatus().files());
      }
      store.drop();
    } finally {
      if (stopped.get()) {
        runner.startNode(victim);
        runner.ensureYellow();
      }
    }
  }

  private static long count(Cluster c, String index, String type) throws IOException {
    ObjectNode q = Cluster.JSON.createObjectNode();
    q.putObject("query").putObject("term").put(IndexLayout.TYPE, type);
    Cluster.Reply r = c.send("POST", "/" + index + "/_count", Map.of(), q);
    return r.ok() ? r.body().path("count").asLong() : 0;
  }

  private static int chunksOf(Cluster c, String index, String path) throws IOException {
    ObjectNode q = Cluster.JSON.createObjectNode();
    var filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.addObject().putObject("term").put(IndexLayout.TYPE, IndexLayout.TYPE_CHUNK);
    filter.addObject().putObject("term").put(IndexLayout.PATH, path);
    return c.call("POST", "/" + index + "/_count", Map.of(), q).path("count").asInt();
  }

  private static List<String> describe(List<Hit> hits) {
    return hits.stream().map(h -> h.path() + ":" + h.line() + ":" + h.column()).toList();
  }
}
