package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.SkippedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The manifest kept in the cluster index itself, as locally, per repository ({@link Slice}): one
 * FILE document per indexed file
 * (path, BLAKE3 hash, size, modification time, language, chunk count) and one SKIPPED document per
 * file left out by its content. Read whole at the start of a run, page by page in path order.
 */
final class ClusterManifest {

  private static final int PAGE = 2_000;

  private ClusterManifest() {}

  /**
   * The FILE entries at or below the paths of {@code scope} (all when null), by path (empty when
   * the index does not exist).
   */
  static Map<String, FileEntry> files(Cluster cluster, Slice slice,
      @Nullable Collection<String> scope) throws IOException {
    Map<String, FileEntry> out = new HashMap<>();
    scan(cluster, slice, IndexLayout.TYPE_FILE, scopeFilter(scope),
        src -> out.put(src.path(IndexLayout.PATH).asText(), entry(src)));
    return out;
  }

  /** The SKIPPED records at or below the paths of {@code scope} (all when null), by path. */
  static Map<String, SkippedFile> skipped(Cluster cluster, Slice slice,
      @Nullable Collection<String> scope) throws IOException {
    Map<String, SkippedFile> out = new HashMap<>();
    scan(cluster, slice, IndexLayout.TYPE_SKIPPED, scopeFilter(scope), src -> {
      SkipReason reason;
      try {
        reason = SkipReason.valueOf(src.path(IndexLayout.SKIP_REASON).asText());
      } catch (IllegalArgumentException e) {
        return; // a reason this version does not know: the file is looked at again
      }
      String path = src.path(IndexLayout.PATH).asText();
      out.put(path, new SkippedFile(path, reason, src.path(IndexLayout.SIZE).asLong(),
          src.path(IndexLayout.MTIME_NS).asLong(), src.path(IndexLayout.RECORDED_MS).asLong()));
    });
    return out;
  }

  static FileEntry entry(JsonNode src) {
    return new FileEntry(src.path(IndexLayout.PATH).asText(), src.path(IndexLayout.HASH).asText(),
        src.path(IndexLayout.SIZE).asLong(), src.path(IndexLayout.MTIME_NS).asLong(),
        src.path(IndexLayout.RECORDED_MS).asLong(), src.path(IndexLayout.LANGUAGE).asText(),
        src.path(IndexLayout.CHUNK_COUNT).asInt());
  }

  /**
   * Visits the {@code _source} of every document of {@code type} matching {@code query} (null:
   * all), in path order.
   */
  static void scan(Cluster cluster, Slice slice, String type, @Nullable JsonNode query,
      Consumer<JsonNode> visitor) throws IOException {
    JsonNode after = null;
    while (true) {
      ObjectNode body = Cluster.JSON.createObjectNode();
      body.put("size", PAGE);
      ArrayNode filter = body.putObject("query").putObject("bool").putArray("filter");
      filter.addObject().putObject("term").put(IndexLayout.TYPE, type);
      filter.add(slice.filter());
      if (query != null) {
        filter.add(query);
      }
      body.putArray("sort").addObject().put(IndexLayout.PATH, "asc");
      ArrayNode excludes = body.putObject("_source").putArray("excludes");
      excludes.add(IndexLayout.GRAMS).add(IndexLayout.CONTENT).add(IndexLayout.CONTENT_BYTES);
      if (after != null) {
        body.set("search_after", after);
      }
      // Routed: a repository's documents are on one shard, and a scan needs no statistics.
      Cluster.Reply r = cluster.send("POST", slice.url("_search"), slice.routed(Map.of()), body);
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
   * The paths of the FILE documents at or below one of {@code scopes} (all when empty) whose
   * n-grams satisfy {@code grams}, sorted by {@link String#compareTo}: a trigram as a term, a
   * bigram as a wildcard on the grams (an indexed gram containing it), ANDs and ORs as boolean
   * queries.
   */
  static List<String> gramCandidates(Cluster cluster, Slice slice, GramQuery grams,
      List<String> scopes) throws IOException {
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    JsonNode scope = scopeFilter(scopes.isEmpty() ? null : scopes);
    if (scope != null) {
      bool.putArray("filter").add(scope);
    }
    if (!(grams instanceof GramQuery.All)) {
      bool.putArray("must").add(gramQuery(grams));
    }
    List<String> out = new ArrayList<>();
    scan(cluster, slice, IndexLayout.TYPE_FILE, q,
        src -> out.add(src.path(IndexLayout.PATH).asText()));
    out.sort(null);
    return out;
  }

  static ObjectNode gramQuery(GramQuery grams) {
    ObjectNode q = Cluster.JSON.createObjectNode();
    if (grams instanceof GramQuery.Gram g) {
      if (g.text().length() == 3) {
        q.putObject("term").put(IndexLayout.GRAMS, g.text());
      } else {
        String wildcard = "*" + g.text().replace("\\", "\\\\").replace("*", "\\*")
            .replace("?", "\\?") + "*";
        q.putObject("wildcard").putObject(IndexLayout.GRAMS).put("value", wildcard);
      }
    } else if (grams instanceof GramQuery.And and) {
      ArrayNode must = q.putObject("bool").putArray("must");
      and.all().forEach(p -> must.add(gramQuery(p)));
    } else if (grams instanceof GramQuery.Or or) {
      ObjectNode bool = q.putObject("bool");
      ArrayNode should = bool.putArray("should");
      or.any().forEach(p -> should.add(gramQuery(p)));
      bool.put("minimum_should_match", 1);
    } else {
      q.putObject("match_all");
    }
    return q;
  }

  /** The paths of the FILE documents at or below one of {@code scopes} (all when empty). */
  static List<String> paths(Cluster cluster, Slice slice, List<String> scopes)
      throws IOException {
    List<String> out = new ArrayList<>();
    scan(cluster, slice, IndexLayout.TYPE_FILE, scopeFilter(scopes.isEmpty() ? null : scopes),
        src -> out.add(src.path(IndexLayout.PATH).asText()));
    return out;
  }

  /** Documents whose path is one of {@code scope}'s paths or below one; null for no filter. */
  static @Nullable ObjectNode scopeFilter(@Nullable Collection<String> scope) {
    if (scope == null) {
      return null;
    }
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    ArrayNode should = bool.putArray("should");
    for (String s : scope) {
      should.addObject().putObject("term").put(IndexLayout.PATH, s);
      should.addObject().putObject("prefix").put(IndexLayout.PATH, s + "/");
    }
    bool.put("minimum_should_match", 1);
    return q;
  }

  /**
   * After an interrupted run: deletes every chunk document the manifest does not account for (a
   * path it does not have, or an ordinal at or beyond its file's chunk count), which the
   * interrupted run may have written without the FILE document that commits them. Reads the
   * chunks' paths and ordinals once; runs only after an interruption.
   */
  static void sweepOrphans(Cluster cluster, Slice slice, Map<String, FileEntry> manifest)
      throws IOException {
    List<String> orphans = new ArrayList<>();
    ClusterManifest.scan(cluster, slice, IndexLayout.TYPE_CHUNK, null, src -> {
      String path = src.path(IndexLayout.PATH).asText();
      int ordinal = src.path(IndexLayout.ORDINAL).asInt();
      FileEntry e = manifest.get(path);
      if (e == null || ordinal >= e.chunks()) {
        orphans.add(slice.id(ClusterIds.chunk(path, ordinal)));
      }
    });
    for (int from = 0; from < orphans.size(); from += 1_000) {
      StringBuilder body = new StringBuilder();
      for (String id : orphans.subList(from, Math.min(orphans.size(), from + 1_000))) {
        ObjectNode a = Cluster.JSON.createObjectNode();
        a.putObject("delete").put("_id", id);
        body.append(a).append('\n');
      }
      Cluster.Reply r = cluster.sendBulk(slice.url("_bulk"), slice.routed(Map.of()),
          body.toString().getBytes(StandardCharsets.UTF_8));
      if (!r.ok() || r.body().path("errors").asBoolean()) {
        throw new ClusterUnavailableException("the cluster refused to delete the chunks an"
            + " interrupted run left; running the update again retries");
      }
    }
  }
}
