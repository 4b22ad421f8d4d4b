package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.internal.analysis.Grams;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.internal.store.SkippedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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

  /**
   * The paths of the FILE documents that may hold {@code query} and that {@code files} selects, in
   * path order, by the local index's candidate rule ({@code Grams}): every query trigram as a term,
   * a bigram inside some indexed gram, no filter for one unit. A matching file is always one.
   */
  static List<String> literalCandidates(Cluster cluster, String index, String query,
      boolean caseSensitive, FileMatcher files) throws IOException {
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    if (!files.scopes().isEmpty()) {
      ArrayNode any = bool.putArray("filter").addObject().putObject("bool")
          .put("minimum_should_match", 1).putArray("should");
      for (String s : files.scopes()) {
        any.add(ClusterChunkIndex.scopeFilter(s));
      }
    }
    ArrayNode must = bool.putArray("must");
    for (String g : Grams.queryGrams(query, caseSensitive)) {
      if (g.length() == Grams.N) {
        must.addObject().putObject("term").put(IndexLayout.GRAMS, g);
      } else {
        String wildcard = "*" + g.replace("\\", "\\\\").replace("*", "\\*")
            .replace("?", "\\?") + "*";
        must.addObject().putObject("wildcard").putObject(IndexLayout.GRAMS)
            .put("value", wildcard);
      }
    }
    List<String> out = new ArrayList<>();
    scan(cluster, index, Schema.TYPE_FILE, q, src -> {
      String path = src.path(Schema.PATH).asText();
      if (files.test(path)) {
        out.add(path);
      }
    });
    return out;
  }

  /**
   * After an interrupted run: deletes every chunk document the manifest does not account for (a
   * path it does not have, or an ordinal at or beyond its file's chunk count), which the
   * interrupted run may have written without the FILE document that commits them. Reads the
   * chunks' paths and ordinals once; runs only after an interruption.
   */
  static void sweepOrphans(Cluster cluster, String index, Map<String, FileEntry> manifest)
      throws IOException {
    List<String> orphans = new ArrayList<>();
    ClusterManifest.scan(cluster, index, Schema.TYPE_CHUNK, null, src -> {
      String path = src.path(Schema.PATH).asText();
      int ordinal = src.path(IndexLayout.ORDINAL).asInt();
      FileEntry e = manifest.get(path);
      if (e == null || ordinal >= e.chunks()) {
        orphans.add(ClusterIds.chunk(path, ordinal));
      }
    });
    for (int from = 0; from < orphans.size(); from += 1_000) {
      StringBuilder body = new StringBuilder();
      for (String id : orphans.subList(from, Math.min(orphans.size(), from + 1_000))) {
        ObjectNode a = Cluster.JSON.createObjectNode();
        a.putObject("delete").put("_id", id);
        body.append(a).append('\n');
      }
      Cluster.Reply r = cluster.sendBulk("/" + index + "/_bulk", Map.of(),
          body.toString().getBytes(StandardCharsets.UTF_8));
      if (!r.ok() || r.body().path("errors").asBoolean()) {
        throw new ClusterUnavailableException("the cluster refused to delete the chunks an"
            + " interrupted run left; running the update again retries");
      }
    }
  }
}
