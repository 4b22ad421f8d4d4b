package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a repository's cluster index records about itself: the mapping's {@code _meta} (format,
 * analyzer, model; fixed when the index is created, so read once per instance until this
 * instance deletes or creates the index) and the commit record ({@code _id: meta}: state,
 * revision, time, counts, skip counts), plus the cluster's own view of the index (health, FILE
 * document count, store size) that {@code status} attests against.
 */
final class ClusterRecord {

  private final Cluster cluster;
  private final String index;
  private final Clock clock;
  private @Nullable Map<String, String> layout;

  ClusterRecord(Cluster cluster, String index, Clock clock) {
    this.cluster = cluster;
    this.index = index;
    this.clock = clock;
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
   * Creates the index when missing, its mapping pinning this process's model (none when semantic
   * search is off), and returns the model whose vectors it holds (null: none). An index created
   * meanwhile by another process is checked like an old one.
   *
   * @throws IncompatibleIndexException when the index pins a model this process does not have
   */
  @Nullable Embedder ensure(OpenSearchOptions options, SemanticAvailability semantic)
      throws IOException {
    Embedder model = semantic.embedder();
    boolean vectors = options.local().semantic() && model != null;
    Map<String, String> meta = layout();
    if (meta == null) {
      forgetLayout();
      Cluster.Reply r = cluster.send("PUT", "/" + index, Map.of("wait_for_active_shards", "1"),
          IndexLayout.createBody(options, vectors ? model.id() : null,
              vectors ? model.dimension() : 0));
      if (!r.ok() && !r.body().path("error").path("type").asText()
          .equals("resource_already_exists_exception")) {
        throw ClusterRequestException.of("creating index " + index, r);
      }
      meta = layout();
      if (meta == null) {
        throw new ClusterUnavailableException("index " + index + " vanished right after its"
            + " creation");
      }
    }
    String id = meta.getOrDefault(Schema.META_EMBEDDER_ID, "");
    if (id.isEmpty()) {
      return null; // created without vectors: lexical and literal only until rebuilt
    }
    if (!vectors || !semantic.check(meta).available()) {
      throw new IncompatibleIndexException("embedding model", id + " (dim "
          + meta.get(Schema.META_EMBEDDER_DIM) + ") pinned by cluster index " + index,
          (model == null || !vectors ? "none in this process; enable the model or"
              : model.id() + " (dim " + model.dimension() + ");")
              + " rebuild the index (full refresh)");
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
    String format = meta.getOrDefault(Schema.META_FORMAT, "");
    if (!format.equals(IndexLayout.FORMAT)) {
      throw new IncompatibleIndexException("cluster index format of " + index, format,
          IndexLayout.FORMAT);
    }
    String analyzerVersion = meta.getOrDefault(Schema.META_ANALYZER, "");
    if (!analyzerVersion.equals(CodeAnalyzer.VERSION)) {
      throw new IncompatibleIndexException("analyzer of cluster index " + index, analyzerVersion,
          CodeAnalyzer.VERSION);
    }
  }

  /** The commit record, or null when the index or the record does not exist. */
  @Nullable JsonNode read() throws IOException {
    Cluster.Reply r = cluster.send("GET", "/" + index + "/_doc/" + ClusterIds.META, Map.of(),
        null);
    if (r.status() == 404) {
      return null;
    }
    if (!r.ok()) {
      throw ClusterRequestException.of("reading the commit record of " + index, r);
    }
    return r.body().path("found").asBoolean() ? r.body().path("_source") : null;
  }

  /**
   * Writes the commit record, visible at once: {@code ready} with the run's figures, or {@code
   * writing} keeping the previous record's.
   */
  void write(@Nullable JsonNode previous, String state, @Nullable String revision,
      Map<String, FileEntry> manifest, Map<SkipReason, Integer> skipped) throws IOException {
    ObjectNode d = Cluster.JSON.createObjectNode();
    d.put(Schema.TYPE, IndexLayout.META_TYPE);
    d.put(IndexLayout.STATE, state);
    if (state.equals(IndexLayout.STATE_READY)) {
      if (revision != null) {
        d.put("revision", revision);
      }
      d.put("updated_ms", clock.millis());
      d.put("files", manifest.size());
      d.put("chunks", manifest.values().stream().mapToLong(FileEntry::chunks).sum());
      d.put("skipped", CommitMeta.skippedMeta(skipped));
    } else if (previous != null) {
      for (String f : new String[] {"revision", "updated_ms", "files", "chunks", "skipped"}) {
        if (previous.has(f)) {
          d.set(f, previous.get(f));
        }
      }
    }
    cluster.call("PUT", "/" + index + "/_doc/" + ClusterIds.META, Map.of("refresh", "true"), d);
  }

  /** The cluster's health of the index: green, yellow or red. */
  String health() throws IOException {
    return cluster.call("GET", "/_cluster/health/" + index, Map.of("timeout", "5s"), null)
        .path("status").asText("red");
  }

  /** The number of FILE documents the index holds. */
  long countFiles() throws IOException {
    ObjectNode q = Cluster.JSON.createObjectNode();
    q.putObject("query").putObject("term").put(Schema.TYPE, Schema.TYPE_FILE);
    return cluster.call("POST", "/" + index + "/_count", Map.of(), q).path("count").asLong();
  }

  /** The primary store size of the index in bytes. */
  long storeBytes() throws IOException {
    JsonNode s = cluster.call("GET", "/" + index + "/_stats/store", Map.of(), null);
    return s.path("_all").path("primaries").path("store").path("size_in_bytes").asLong();
  }
}
