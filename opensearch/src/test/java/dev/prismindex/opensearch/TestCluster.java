package dev.prismindex.opensearch;

import static org.codelibs.opensearch.runner.OpenSearchRunner.newConfigs;

import dev.prismindex.embed.HashingEmbedder;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.opensearch.node.Node;

/**
 * A real two-node OpenSearch 2.19 cluster inside the test JVM (OpenSearch Runner, with the k-NN
 * plugin, whose Lucene engine needs no native code), started once for all test classes and
 * stopped when the JVM exits. Indices get two primary shards and one replica, so every index
 * spreads over both nodes.
 */
final class TestCluster {

  private static OpenSearchRunner runner;
  private static Path home;
  private static final AtomicInteger INDICES = new AtomicInteger();

  private TestCluster() {}

  /** The running cluster (started on first use). */
  static synchronized OpenSearchRunner runner() {
    if (runner == null) {
      try {
        home = Files.createTempDirectory("prism-opensearch-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      OpenSearchRunner r = new OpenSearchRunner();
      int base = 19200 + (int) (ProcessHandle.current().pid() % 500) * 10;
      r.setMaxHttpPort(base + 99);
      r.onBuild((n, s) -> {
        s.put("cluster.routing.allocation.disk.threshold_enabled", false);
        s.put("http.cors.enabled", false);
      }).build(newConfigs().numOfNode(2).clusterName("prism-test-" + ProcessHandle.current().pid())
          .baseHttpPort(base)
          .basePath(home.toString()).pluginTypes("org.opensearch.knn.plugin.KNNPlugin")
          .disableESLogger());
      r.ensureYellow();
      runner = r;
      Runtime.getRuntime().addShutdownHook(new Thread(TestCluster::stop));
    }
    return runner;
  }

  private static synchronized void stop() {
    if (runner != null) {
      try {
        runner.close();
      } catch (IOException e) {
        // the JVM is exiting
      }
      runner.clean();
    }
  }

  /**
   * Starts the cluster and keeps it running until the process is stopped (for benchmarks against
   * a real cluster: {@code scripts/opensearch-cluster}). Prints the URL of each node.
   */
  public static void main(String[] args) throws InterruptedException {
    runner();
    System.out.println("cluster ready: " + url(0) + " " + url(1));
    Thread.currentThread().join();
  }

  /** The HTTP URL of node {@code i} (0 or 1). */
  static URI url(int i) {
    Node node = runner().getNode(i);
    String port = node.settings().get("http.port");
    return URI.create("http://127.0.0.1:" + port);
  }

  /** A fresh index name. */
  static String newIndexName() {
    return "prism-test-" + INDICES.incrementAndGet();
  }

  /** The local options of a test repository: the core's deterministic hashing embedder. */
  static HybridIndexOptions local(Path root) {
    return HybridIndexOptions.builder(root).embedder(new HashingEmbedder()).threads(2).build();
  }

  /** Options for node 0, a fresh index with two shards and one replica. */
  static OpenSearchOptions.Builder options() {
    return OpenSearchOptions.builder(url(0)).indexName(newIndexName()).shards(2).replicas(1)
        .retries(2);
  }

  /** The engine's index of {@code root} in the cluster, with {@link #local} options. */
  static HybridIndex open(Path root, OpenSearchOptions options) throws IOException {
    return OpenSearchStore.openIndex(local(root), options);
  }

  /** {@link #open} in a fresh index on node 0. */
  static HybridIndex open(Path root) throws IOException {
    return open(root, options().build());
  }
}
