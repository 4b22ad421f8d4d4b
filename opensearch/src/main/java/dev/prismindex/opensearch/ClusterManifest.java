package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.internal.store.SkippedFile;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The manifest kept in the cluster index itself, as locally: one FILE document per indexed file
 * (path, BLAKE3 hash, size, modification time, language, chunk count) and one SKIPPED document per
 * file left out by its content. Read whole at the start of a run, page by page in path order.
 */
final class ClusterManifest {

  private static final int PAGE = 2_000;

  private ClusterManifest() {}

  /** The FILE entries, by path (empty when the index does not exist). */
  static Map<String, FileEntry> files(Cluster cluster, String index) throws IOException {
    Map<String, FileEntry> out = new HashMap<>();
    scan(cluster, index, Schema.TYPE_FILE, null, src -> out.put(src.path(Schema.PATH).asText(),
        entry(src)));
    return out;
  }

  /** The SKIPPED records, by path. */
  static Map<String, SkippedFile> skipped(Cluster cluster, String index) throws IOException {
    Map<String, SkippedFile> out = new HashMap<>();
    scan(cluster, index, Schema.TYPE_SKIPPED, null, src -> {
      SkipReason reason;
      try {
        reason = SkipReason.valueOf(src.path(Schema.SKIP_REASON).asText());
      } catch (IllegalArgumentException e) {
        return; // a reason this version does not know: the file is looked at again
      }
      String path = src.path(Schema.PATH).asText();
      out.put(path, new SkippedFile(path, reason, src.path(Schema.SIZE).asLong(),
          src.path(Schema.MTIME_NS).asLong(), src.path(Schema.RECORDED_MS).asLong()));
    });
    return out;
  }

  static FileEntry entry(JsonNode src) {
    return new FileEntry(src.path(Schema.PATH).asText(), src.path(Schema.HASH).asText(),
        src.path(Schema.SIZE).asLong(), src.path(Schema.MTIME_NS).asLong(),
        src.path(Schema.RECORDED_MS).asLong(), src.path(Schema.LANGUAGE).asText(),
        src.path(Schema.CHUNK_COUNT).asInt());
  }

  /**
   * Visits the {@code _source} of every document of {@code type} matching {@code query} (null:
   * all), in path order.
   */
  static void scan(Cluster cluster, String index, String type, @Nullable JsonNode query,
      Consumer<JsonNode> visitor) throws IOException {
    JsonNode after = null;
    while (true) {
      ObjectNode body = Cluster.JSON.createObjectNode();
      body.put("size", PAGE);
      ArrayNode filter = body.putObject("query").putObject("bool").putArray("filter");
      filter.addObject().putObject("term").put(Schema.TYPE, type);
      if (query != null) {
        filter.add(query);
      }
      body.putArray("sort").addObject().put(Schema.PATH, "asc");
      body.putObject("_source").putArray("excludes").add(IndexLayout.GRAMS);
      if (after != null) {
        body.set("search_after", after);
      }
      Cluster.Reply r = cluster.send("POST", "/" + index + "/_search", Map.of(), body);
      if (r.status() == 404) {
        return;
      }
      if (!r.ok()) {
        throw ClusterRequestException.of("reading the manifest", r);
      }
      JsonNode hits = r.body().path("hits").path("hits");
      for (JsonNode h : hits) {
        visitor.accept(h.path("_source"));
        after = h.path("sort");
      }
      if (hits.size() < PAGE) {
        return;
      }
    }
  }

  /** The paths of the FILE documents matching {@code query}, in path order. */
  static List<String> paths(Cluster cluster, String index, JsonNode query) throws IOException {
    List<String> out = new java.util.ArrayList<>();
    scan(cluster, index, Schema.TYPE_FILE, query, src -> out.add(src.path(Schema.PATH).asText()));
    return out;
  }
}
