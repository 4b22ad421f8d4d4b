package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.spi.ChunkVectors;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.WriteSpec;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a repository's slice of a cluster index records about itself: the index mapping's {@code
 * _meta} (format, analyzer, model, shared by the index's repositories; fixed when the index is
 * created, so read once per instance until this instance deletes or creates the index) and the
 * repository's commit record (its {@code meta} document: state, revision, time, counts, skip
 * counts), plus the cluster's own view (the index's health, the repository's FILE document count
 * and share of the store) that {@code health()} attests against.
 *
 * <p>The commit record keeps, of the kernel's {@link CommitRecord}, the revision, the time, the
 * file and chunk counts and the skip counts (the fields this format has); the rules' fingerprint
 * is not kept, so a change of the file rules is seen by a verifying run only.
 */
final class ClusterRecord {

  /** The commit record's fields and the kernel's keys they keep. */
  private static final Map<String, String> FIELDS = Map.of(
      "revision", CommitRecord.REVISION,
      "updated_ms", CommitRecord.UPDATED_AT,
      "files", CommitRecord.FILES,
      "chunks", CommitRecord.CHUNKS,
      "skipped", CommitRecord.SKIPPED);

  private final Cluster cluster;
  private final Slice slice;
  private final String index;
  private @Nullable Map<String, String> layout;

  ClusterRecord(Cluster cluster, Slice slice) {
    this.cluster = cluster;
    this.slice = slice;
    this.index = slice.index();
  }

  /** The mapping's {@code _meta} of the index, or null when the index does not exist. */
  synchronized @Nullable Map<String, String> layout() throws IOException {
    if (layout != null) {
      return layout;
    }
    Cluster.Reply r = cluster.send("GET", "/" + index + "/_mapping", Map.of(), null);
    if (r.status() == 404) {
      return null;
    }
    if (!r.ok()) {
      throw ClusterRequestException.of("reading the mapping of " + index, r);
    }
    JsonNode m = r.body().path(index).path("mappings").path("_meta");
    Map<String, String> out = new HashMap<>();
    m.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    layout = Map.copyOf(out);
    return layout;
  }

  /** Forgets the layout read, after this instance deleted or created the index. */
  synchronized void forgetLayout() {
    layout = null;
  }

  /**
   * Creates the index when missing, its mapping pinning {@code spec}'s model (none without one),
   * and returns the model whose vectors it holds (null: none). An index created meanwhile by
   * another process is checked like an old one.
   *
   * @throws IncompatibleIndexException when the index pins a model {@code spec} does not have
   */
  @Nullable ChunkVectors ensure(OpenSearchOptions options, WriteSpec spec, boolean bulkLoad)
      throws IOException {
    ChunkVectors model = spec.vectors();
    Map<String, String> meta = layout();
    if (meta == null) {
      forgetLayout();
      Cluster.Reply r = cluster.send("PUT", "/" + index, Map.of("wait_for_active_shards", "1"),
          IndexLayout.createBody(options, spec.analyzerVersion(),
              model == null ? null : model.modelId(), model == null ? 0 : model.dimension(),
              bulkLoad));
      if (!r.ok() && !r.body().path("error").path("type").asText()
          .equals("resource_already_exists_exception")) {
        throw ClusterRequestException.of("creating index " + index, r);
      }
      // Another run's creation may not have started the primaries yet: wait for them.
      cluster.send("GET", "/_cluster/health/" + index, Map.of("wait_for_status", "yellow",
          "timeout", "30s"), null);
      meta = layout();
      if (meta == null) {
        throw new ClusterUnavailableException("index " + index + " vanished right after its"
            + " creation");
      }
    }
    String id = meta.getOrDefault(CommitRecord.EMBEDDER_ID, "");
    if (id.isEmpty()) {
      return null; // created without vectors: lexical and literal only until rebuilt
    }
    String dim = meta.get(CommitRecord.EMBEDDER_DIM);
    if (model == null || !model.modelId().equals(id)
        || !Integer.toString(model.dimension()).equals(dim)) {
      throw new IncompatibleIndexException("embedding model", id + " (dim " + dim
          + ") pinned by cluster index " + index, (model == null ? "none in this process"
              : model.modelId() + " (dim " + model.dimension() + ")")
              + "; rebuild the index (full refresh)");
    }
    return model;
  }

  /**
   * Checks format and analyzer of an existing index.
   *
   * @throws IncompatibleIndexException when either is not this code's
   */
  void checkLayout() throws IOException {
    Map<String, String> meta = layout();
    if (meta == null) {
      return;
    }
    String format = meta.getOrDefault(CommitRecord.FORMAT, "");
    if (!format.equals(IndexLayout.FORMAT)) {
      throw new IncompatibleIndexException("cluster index format of " + index, format,
          IndexLayout.FORMAT);
    }
    String analyzerVersion = meta.getOrDefault(CommitRecord.ANALYZER, "");
    if (!analyzerVersion.equals(HybridIndex.ANALYZER_VERSION)) {
      throw new IncompatibleIndexException("analyzer of cluster index " + index, analyzerVersion,
          HybridIndex.ANALYZER_VERSION);
    }
  }

  /** The commit record, or null when the index or the record does not exist. */
  @Nullable JsonNode read() throws IOException {
    Cluster.Reply r = cluster.send("GET", slice.url("_doc/" + slice.id(ClusterIds.META)),
        slice.routed(Map.of()), null);
    if (r.status() == 404) {
      return null;
    }
    if (!r.ok()) {
      throw ClusterRequestException.of("reading the commit record of " + index, r);
    }
    return r.body().path("found").asBoolean() ? r.body().path("_source") : null;
  }

  /**
   * The kernel's view of the index: the layout's pins, and the commit record's values (a chunk
   * count of embedded chunks when the index holds vectors: every chunk gets one as it is
   * stored); empty values when the index does not exist.
   */
  CommitRecord values(@Nullable JsonNode meta) throws IOException {
    Map<String, String> pins = layout();
    return pins == null ? CommitRecord.EMPTY : values(pins, meta);
  }

  /**
   * The kernel's view of the commit record {@code meta} (null: none yet) in an index pinning
   * {@code pins}.
   */
  static CommitRecord values(Map<String, String> pins, @Nullable JsonNode meta) {
    Map<String, String> out = new HashMap<>(pins);
    if (meta != null) {
      FIELDS.forEach((field, key) -> {
        if (meta.hasNonNull(field)) {
          out.put(key, meta.path(field).asText());
        }
      });
      if (out.containsKey(CommitRecord.CHUNKS)) {
        out.put(CommitRecord.CHUNKS_EMBEDDED,
            pins.getOrDefault(CommitRecord.EMBEDDER_ID, "").isEmpty() ? "0"
                : out.get(CommitRecord.CHUNKS));
      }
    }
    return new CommitRecord(out);
  }

  /**
   * Writes the commit record, visible at once: {@code ready} with the run's record, or {@code
   * writing} keeping the previous record's fields.
   */
  void write(@Nullable JsonNode previous, String state, @Nullable CommitRecord record)
      throws IOException {
    ObjectNode d = Cluster.JSON.createObjectNode();
    d.put(IndexLayout.TYPE, IndexLayout.META_TYPE);
    d.put(IndexLayout.REPOSITORY, slice.repository());
    d.put(IndexLayout.STATE, state);
    if (record != null) {
      FIELDS.forEach((field, key) -> {
        String v = record.get(key);
        if (v == null) {
          return;
        }
        if (field.equals("revision") || field.equals("skipped")) {
          d.put(field, v);
        } else {
          d.put(field, Long.parseLong(v));
        }
      });
    } else if (previous != null) {
      for (String f : FIELDS.keySet()) {
        if (previous.has(f)) {
          d.set(f, previous.get(f));
        }
      }
    }
    cluster.call("PUT", slice.url("_doc/" + slice.id(ClusterIds.META)),
        slice.routed(Map.of("refresh", "true")), d);
  }

  /** The cluster's health of the index: green, yellow or red. */
  String health() throws IOException {
    return cluster.call("GET", "/_cluster/health/" + index, Map.of("timeout", "5s"), null)
        .path("status").asText("red");
  }

  /** The number of FILE documents the repository holds. */
  long countFiles() throws IOException {
    return count(IndexLayout.TYPE_FILE);
  }

  /** The number of the repository's documents of {@code type}, or of every type when null. */
  long count(@Nullable String type) throws IOException {
    ObjectNode q = Cluster.JSON.createObjectNode();
    var filter = q.putObject("query").putObject("bool").putArray("filter");
    filter.add(slice.filter());
    if (type != null) {
      filter.addObject().putObject("term").put(IndexLayout.TYPE, type);
    }
    return cluster.call("POST", slice.url("_count"), slice.routed(Map.of()), q).path("count")
        .asLong();
  }

  /**
   * The repository's share of the index's primary store, in bytes: the store size times its part
   * of the documents (the cluster measures indexes, not the repositories inside one).
   */
  long storeBytes() throws IOException {
    JsonNode s = cluster.call("GET", slice.url("_stats/store,docs"), Map.of(), null)
        .path("_all").path("primaries");
    long bytes = s.path("store").path("size_in_bytes").asLong();
    long docs = s.path("docs").path("count").asLong();
    return docs == 0 ? bytes : Math.round(bytes * Math.min(1.0, count(null) / (double) docs));
  }
}
