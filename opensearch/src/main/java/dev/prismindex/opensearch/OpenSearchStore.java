package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.spi.ChunkVectors;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import dev.prismindex.engine.spi.Store;
import dev.prismindex.engine.spi.StoreHealth;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.engine.spi.StoreWrite;
import dev.prismindex.engine.spi.WriteSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One repository's index in an OpenSearch 2.x cluster, as a store of the engine ({@link Store}):
 * {@code HybridIndex.open(options, OpenSearchStore.connect(root, clusterOptions))} (or {@link
 * #openIndex}) gives the local engine's answers over the cluster's documents: the same pipeline
 * (walk and file rules, BLAKE3 manifest, chunking, embeddings from the same model) feeding a
 * cluster index, and the same ranking, fusion, identifier guard and per-hit freshness check over
 * the cluster's BM25, k-NN and gram candidates.
 *
 * <p>A repository's documents are its slice of a cluster index ({@link
 * OpenSearchOptions#indexName(Path)}: its organisation's shared index, or an index of its own
 * outside any): they carry its name ({@link OpenSearchOptions#repositoryName(Path)}), are routed by
 * it, and every query is filtered to them, so a query never sees another repository's documents.
 * The manifest lives with them (FILE documents, the commit record of each file); a write that did
 * not finish leaves the repository {@code stale} and the next one completes it. {@link #health()} is sound only when the cluster reports
 * the index green or yellow and its FILE documents match the last commit's record. Thread-safe.
 */
public final class OpenSearchStore implements Store {

  private final OpenSearchOptions options;
  private final Cluster cluster;
  private final Slice slice;
  private final String index;
  private final ClusterRecord record;
  private final java.util.concurrent.@Nullable Semaphore bulkInFlight;
  private final boolean bulkLoad;

  private OpenSearchStore(OpenSearchOptions options, Cluster cluster, Slice slice,
      java.util.concurrent.@Nullable Semaphore bulkInFlight, boolean bulkLoad) {
    this.options = options;
    this.cluster = cluster;
    this.slice = slice;
    this.index = slice.index();
    this.record = new ClusterRecord(cluster, slice);
    this.bulkInFlight = bulkInFlight;
    this.bulkLoad = bulkLoad;
  }

  /**
   * Connects to the cluster and checks the repository's index, if it exists, was written by this
   * format and analyzer. Nothing is indexed.
   *
   * @param root the repository's root (it names the default index)
   * @throws ClusterUnavailableException when the cluster cannot be reached
   * @throws IncompatibleIndexException when the index has another format or analyzer
   * @throws IOException when the cluster refuses a request
   */
  public static OpenSearchStore connect(Path root, OpenSearchOptions options) throws IOException {
    return connect(root, options, null, false);
  }

  /**
   * {@link #connect}, its bulk requests holding a permit of {@code bulkInFlight} each; {@code
   * bulkLoad}: an index it creates gets a bulk load's settings ({@link BulkLoad}).
   */
  static OpenSearchStore connect(Path root, OpenSearchOptions options,
      java.util.concurrent.@Nullable Semaphore bulkInFlight, boolean bulkLoad) throws IOException {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(options, "options");
    Cluster cluster = Cluster.connect(options);
    try {
      cluster.call("GET", "/", Map.of(), null);
      Path at = root.toAbsolutePath().normalize();
      OpenSearchStore store = new OpenSearchStore(options, cluster,
          new Slice(options.indexName(at), options.repositoryName(at)), bulkInFlight, bulkLoad);
      store.record.checkLayout();
      return store;
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /**
   * The engine's index of {@code local.root()} in the cluster: {@link #connect} and {@code
   * HybridIndex.open(local, store)}.
   *
   * @throws ClusterUnavailableException when the cluster cannot be reached
   * @throws IncompatibleIndexException when the index has another format or analyzer
   * @throws IOException when the repository root is missing or the cluster refuses a request
   */
  public static HybridIndex openIndex(HybridIndexOptions local, OpenSearchOptions options)
      throws IOException {
    return HybridIndex.open(local, connect(local.root(), options));
  }

  /** The options this store was connected with. */
  public OpenSearchOptions options() {
    return options;
  }

  /** The cluster index holding the repository (with the other repositories of its organisation). */
  public String indexName() {
    return index;
  }

  @Override
  public String describe() {
    return "repository " + slice.repository() + " of cluster index " + index + " at "
        + options.urls();
  }

  /** The layout's pins and the commit record; null when there is no index or no record yet. */
  @Override
  public @Nullable CommitRecord record() throws IOException {
    if (record.layout() == null) {
      return null;
    }
    JsonNode meta = record.read();
    return meta == null ? null : record.values(meta);
  }

  @Override
  public Map<String, FileEntry> files(@Nullable Set<String> scope) throws IOException {
    return ClusterManifest.files(cluster, slice, scope);
  }

  @Override
  public Map<String, SkippedFile> skipped(@Nullable Set<String> scope) throws IOException {
    return ClusterManifest.skipped(cluster, slice, scope);
  }

  /**
   * Creates the index when missing (its mapping pinning {@code spec}'s model), and records that a
   * write is under way.
   *
   * @throws IncompatibleIndexException when the index pins a model {@code spec} does not have
   */
  @Override
  public StoreWrite beginWrite(WriteSpec spec) throws IOException {
    ChunkVectors vectors = record.ensure(options, spec, bulkLoad);
    JsonNode previous = record.read();
    record.write(previous, IndexLayout.STATE_WRITING, null);
    boolean content = "stored".equals(record.layout() == null ? null
        : record.layout().get(CommitRecord.CONTENT));
    return new ClusterWrite(cluster, slice, record, previous, new ClusterSink(cluster, slice,
        spec.analyzer(), vectors, options.bulkBytes(), options.retries(), content,
        bulkInFlight));
  }

  @Override
  public StoreReader reader() {
    return new ClusterReader(cluster, slice, record);
  }

  /**
   * Damaged when the cluster reports the index red; stale when the record says a write is under
   * way (or never finished), or the repository has another number of FILE documents than the
   * record counts; sound otherwise. The size is the repository's share of the index.
   */
  @Override
  public StoreHealth health() throws IOException {
    if (record.layout() == null) {
      return StoreHealth.sound(0);
    }
    long size = record.storeBytes();
    if (record.health().equals("red")) {
      return new StoreHealth(StoreHealth.Condition.DAMAGED, "the cluster reports " + index
          + " red (a primary shard is unassigned)", size);
    }
    JsonNode meta = record.read();
    if (meta == null || !IndexLayout.STATE_READY.equals(meta.path(IndexLayout.STATE).asText())) {
      return new StoreHealth(StoreHealth.Condition.STALE, "a write of repository "
          + slice.repository() + " to " + index + " began and did not finish", size);
    }
    long files = meta.path("files").asLong(-1);
    long held = record.countFiles();
    if (held != files) {
      return new StoreHealth(StoreHealth.Condition.STALE, "repository " + slice.repository()
          + " of " + index + " has " + held + " FILE documents; its record counts " + files, size);
    }
    return StoreHealth.sound(size);
  }

  /**
   * Deletes the repository's documents and nothing else: its record first says {@code writing}
   * (so a drop cut short leaves the repository {@code stale}, and the next run completes it),
   * then its documents go by a delete-by-query on its routing and name, the record last. The
   * index itself is deleted when no other repository's documents remain in it (so a rebuild may
   * pin another model).
   */
  @Override
  public boolean drop() throws IOException {
    if (record.layout() == null) {
      return false;
    }
    JsonNode previous = record.read();
    if (previous != null) {
      record.write(previous, IndexLayout.STATE_WRITING, null);
    }
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("query").putObject("bool");
    bool.putArray("filter").add(slice.filter());
    bool.putArray("must_not").addObject().putObject("term").put(IndexLayout.TYPE,
        IndexLayout.META_TYPE);
    JsonNode deleted = cluster.call("POST", slice.url("_delete_by_query"),
        slice.routed(Map.of("refresh", "true", "conflicts", "proceed")), q);
    if (deleted.path("failures").size() > 0) {
      throw new ClusterRequestException("OpenSearch did not delete every document of "
          + slice.repository() + " in " + index + ": " + deleted.path("failures").get(0));
    }
    if (previous != null) {
      cluster.call("DELETE", slice.url("_doc/" + slice.id(ClusterIds.META)),
          slice.routed(Map.of("refresh", "true")), null);
    }
    ObjectNode all = Cluster.JSON.createObjectNode();
    all.putObject("query").putObject("match_all");
    if (cluster.call("POST", slice.url("_count"), Map.of(), all).path("count").asLong() == 0) {
      Cluster.Reply r = cluster.send("DELETE", "/" + index, Map.of(), null);
      if (!r.ok() && r.status() != 404) {
        throw ClusterRequestException.of("deleting " + index, r);
      }
    }
    record.forgetLayout();
    return previous != null || deleted.path("deleted").asLong() > 0;
  }

  /** Closes the client (the cluster index stays). Idempotent. */
  @Override
  public void close() throws IOException {
    cluster.close();
  }
}
