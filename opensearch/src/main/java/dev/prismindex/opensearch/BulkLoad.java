package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first load of an organisation's shared index, tuned the way OpenSearch advises for bulk
 * loading ({@link Organisation#index}): the index is created without replicas and without
 * periodic refreshes ({@code number_of_replicas: 0}, {@code refresh_interval: -1}; each run still
 * ends with its own {@code _refresh}, so a finished repository is searchable), and when the load
 * ends its primaries are merged to few segments (one per {@link #SEGMENT_BYTES} of a shard: one
 * HNSW graph to search per segment instead of one per flush), then the replicas and the periodic
 * refresh are restored, so the replicas copy the merged segments instead of merging their own.
 *
 * <p>An index whose {@code refresh_interval} is {@code -1} is one whose load did not finish (the
 * process died): the next {@link Organisation#index} finishes it (merges and restores).
 */
final class BulkLoad {

  private static final Logger LOG = LoggerFactory.getLogger(BulkLoad.class);
  /** OpenSearch's {@code index.merge.policy.max_merged_segment} default: the merge's target. */
  static final long SEGMENT_BYTES = 5L << 30;
  /** How long the end of a load waits for the merge (it goes on in the cluster after that). */
  static final Duration MERGE_WAIT = Duration.ofMinutes(30);

  private final String index;

  private BulkLoad(String index) {
    this.index = index;
  }

  /**
   * A bulk load of {@code index} when it does not exist yet, or was left in its bulk settings by
   * a load that did not finish; null otherwise (an update of a live index keeps its settings).
   */
  static BulkLoad begin(Cluster cluster, String index) throws IOException {
    Cluster.Reply r = cluster.send("GET", "/" + index + "/_settings",
        Map.of("filter_path", "*.settings.index.refresh_interval"), null);
    if (r.status() == 404) {
      return new BulkLoad(index);
    }
    if (!r.ok()) {
      throw ClusterRequestException.of("reading the settings of " + index, r);
    }
    String refresh = r.body().path(index).path("settings").path("index")
        .path("refresh_interval").asText("");
    return refresh.equals("-1") ? new BulkLoad(index) : null;
  }

  /** The settings of an index created for a bulk load (on top of {@link IndexLayout}'s). */
  static void settings(ObjectNode index) {
    index.put("number_of_replicas", 0);
    index.put("refresh_interval", "-1");
  }

  /**
   * Merges the primaries to few segments (waiting at most {@link #MERGE_WAIT}), then restores
   * {@code replicas} and the periodic refresh. Nothing to do when the load created no index.
   */
  void end(Cluster cluster, int replicas) throws IOException, InterruptedException {
    Cluster.Reply stats = cluster.send("GET", "/" + index + "/_stats/store",
        Map.of("filter_path", "_all.primaries.store.size_in_bytes,_shards.total"), null);
    if (stats.status() == 404) {
      return;
    }
    if (!stats.ok()) {
      throw ClusterRequestException.of("reading the size of " + index, stats);
    }
    JsonNode settings = cluster.call("GET", "/" + index + "/_settings",
        Map.of("filter_path", "*.settings.index.number_of_shards"), null);
    int shards = Math.max(1, settings.path(index).path("settings").path("index")
        .path("number_of_shards").asInt(1));
    long bytes = stats.body().path("_all").path("primaries").path("store")
        .path("size_in_bytes").asLong();
    long segments = Math.max(1, (bytes / shards + SEGMENT_BYTES - 1) / SEGMENT_BYTES);
    merge(cluster, segments);
    // The merge commits its segments; searches see them after a refresh.
    cluster.call("POST", "/" + index + "/_refresh", Map.of(), null);
    ObjectNode restore = Organisation.object();
    ObjectNode i = restore.putObject("index");
    i.put("number_of_replicas", replicas);
    i.putNull("refresh_interval");
    cluster.call("PUT", "/" + index + "/_settings", Map.of(), restore);
  }

  private void merge(Cluster cluster, long segments) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    JsonNode started = cluster.call("POST", "/" + index + "/_forcemerge",
        Map.of("max_num_segments", Long.toString(segments), "wait_for_completion", "false"),
        null);
    String task = started.path("task").asText("");
    if (task.isEmpty()) {
      return; // merged synchronously (a cluster that ignores wait_for_completion)
    }
    long deadline = t0 + MERGE_WAIT.toNanos();
    long pause = 200;
    while (true) {
      Cluster.Reply r = cluster.send("GET", "/_tasks/" + task, Map.of(), null);
      if (r.status() == 404 || r.ok() && r.body().path("completed").asBoolean(false)) {
        JsonNode error = r.body().path("error");
        if (!error.isMissingNode()) {
          LOG.warn("merging {} to {} segment(s) a shard failed: {}", index, segments, error);
        }
        LOG.info("merged {} to {} segment(s) a shard in {} ms", index, segments,
            (System.nanoTime() - t0) / 1_000_000);
        return;
      }
      if (System.nanoTime() > deadline) {
        LOG.warn("merging {} to {} segment(s) a shard goes on in the cluster after {} min",
            index, segments, MERGE_WAIT.toMinutes());
        return;
      }
      Thread.sleep(pause);
      pause = Math.min(5_000, pause * 2);
    }
  }
}
