package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An overloaded cluster (HTTP 429, for a whole bulk request or for one item of it; a reply later
 * than the timeout) slows a run down and loses nothing: refused or unanswered requests and items
 * are sent again after a pause, and a run that is refused past its retries fails and is completed
 * by the next one. The 429s and the late replies come from a {@link Relay} in front of the real
 * cluster.
 */
class OverloadTest {

  private static final int FILES = 12;

  @TempDir
  Path root;

  private void writeFiles() throws IOException {
    for (int i = 0; i < FILES; i++) {
      Path p = root.resolve("src/Part" + i + ".java");
      Files.createDirectories(p.getParent());
      Files.writeString(p, "class Part" + i + " {\n  int loadMarker" + i + "() { return " + i
          + "; }\n}\n", StandardCharsets.UTF_8);
    }
  }

  private static HybridIndex open(Path root, Relay relay, String name) throws IOException {
    return TestCluster.open(root, OpenSearchOptions.builder(relay.url())
        .indexName(name).shards(2).replicas(1).retries(2).bulkBytes(2_000).build());
  }

  /** Every file is found by its own marker (the index is complete). */
  private static void assertComplete(HybridIndex index) throws IOException {
    for (int i = 0; i < FILES; i++) {
      assertThat(index.search("loadMarker" + i + "(",
          new SearchOpts(10, SearchMode.INDEXED_LITERAL, null)))
          .as("file %d", i).extracting(h -> h.path()).containsExactly("src/Part" + i + ".java");
    }
  }

  @Test
  void bulkRequestsRefusedWith429AreSentAgain() throws IOException {
    writeFiles();
    AtomicInteger refusals = new AtomicInteger();
    Relay.Refusal twoRefusals = r -> Relay.bulk(r) && refusals.getAndIncrement() < 2 ? 429 : 0;
    try (Relay relay = new Relay(TestCluster.url(0), twoRefusals, Relay.AS_IS);
        HybridIndex index = open(root, relay, TestCluster.newIndexName())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(relay.requests).filteredOn(Relay::bulk).hasSizeGreaterThan(2);
      assertComplete(index);
    }
  }

  /**
   * The scale run (100 repositories, a loaded machine) lost a repository to one bulk reply later
   * than the 30 s timeout: the run failed at once with "30000 MILLISECONDS".
   */
  @Test
  void aBulkAnsweredAfterTheTimeoutIsSentAgainAndALastTimeoutIsNamed() throws IOException {
    writeFiles();
    AtomicInteger late = new AtomicInteger();
    int[] lateReplies = {1};
    Relay.Rewrite slow = (request, reply) -> {
      if (Relay.bulk(request) && late.getAndIncrement() < lateReplies[0]) {
        try {
          Thread.sleep(1_500); // the cluster has applied it; the client stops waiting at 500 ms
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return reply;
    };
    try (Relay relay = new Relay(TestCluster.url(0), Relay.FORWARD, slow)) {
      try (HybridIndex index = TestCluster.open(root, OpenSearchOptions.builder(relay.url())
          .indexName(TestCluster.newIndexName()).shards(2).replicas(1).retries(2)
          .bulkBytes(2_000).timeout(java.time.Duration.ofMillis(500)).build())) {
        index.refresh(RefreshOptions.INCREMENTAL);
        assertThat(late.get()).isGreaterThan(1);
        assertComplete(index);
      }
      lateReplies[0] = Integer.MAX_VALUE;
      try (HybridIndex index = TestCluster.open(root, OpenSearchOptions.builder(relay.url())
          .indexName(TestCluster.newIndexName()).retries(1).bulkBytes(2_000)
          .timeout(java.time.Duration.ofMillis(500)).build())) {
        assertThatThrownBy(() -> index.refresh(RefreshOptions.INCREMENTAL))
            .isInstanceOf(ClusterUnavailableException.class)
            .hasMessageContaining("did not answer POST").hasMessageContaining("within 500 ms");
      }
    }
  }

  @Test
  void anItemRefusedWith429InsideABulkReplyIsSentAgain() throws IOException {
    writeFiles();
    AtomicInteger rewritten = new AtomicInteger();
    Relay.Rewrite firstItemRefused = (request, reply) -> {
      if (!Relay.bulk(request) || rewritten.getAndIncrement() > 0) {
        return reply;
      }
      try {
        ObjectNode json = (ObjectNode) Cluster.JSON.readTree(reply);
        ObjectNode item = (ObjectNode) json.path("items").get(0).elements().next();
        item.put("status", 429);
        item.putObject("error").put("type", "es_rejected_execution_exception")
            .put("reason", "refused by the test relay");
        json.put("errors", true);
        return Cluster.JSON.writeValueAsBytes(json);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
    try (Relay relay = new Relay(TestCluster.url(0), Relay.FORWARD, firstItemRefused);
        HybridIndex index = open(root, relay, TestCluster.newIndexName())) {
      index.refresh(RefreshOptions.INCREMENTAL); // an item refused and not resent fails the run (ClusterSink)
      assertThat(rewritten.get()).isGreaterThan(1);
      assertComplete(index);
    }
  }

  @Test
  void aRunRefusedPastItsRetriesFailsAndTheNextOneCompletesIt() throws IOException {
    writeFiles();
    AtomicInteger bulks = new AtomicInteger();
    boolean[] overloaded = {true};
    // The first bulk goes through, then the cluster stays overloaded.
    Relay.Refusal overload = r -> Relay.bulk(r) && bulks.getAndIncrement() > 0 && overloaded[0]
        ? 429 : 0;
    String name = TestCluster.newIndexName();
    try (Relay relay = new Relay(TestCluster.url(0), overload, Relay.AS_IS)) {
      try (HybridIndex index = open(root, relay, name)) {
        assertThatThrownBy(() -> index.refresh(RefreshOptions.INCREMENTAL))
            .isInstanceOf(ClusterUnavailableException.class)
            .hasMessageContaining("HTTP 429");
      }
      overloaded[0] = false;
      try (HybridIndex index = open(root, relay, name)) {
        index.refresh(RefreshOptions.INCREMENTAL);
        assertComplete(index);
      }
    }
  }
}
