package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.internal.search.ChunkDoc;
import dev.prismindex.engine.internal.search.ChunkIndex;
import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.search.Query;
import org.jspecify.annotations.Nullable;

/**
 * The {@link ChunkIndex} of a repository's cluster index, for one search: BM25 with global term
 * statistics ({@code dfs_query_then_fetch}, so the number of shards does not change the ranking),
 * k-NN on the chunk vectors (Lucene HNSW, cosine), manifest entries by id. Chunk ids are numbered
 * in the order this instance first saw them. Ties are broken by path and chunk ordinal.
 */
final class ClusterChunkIndex implements ChunkIndex {

  private static final String[] CHUNK_FIELDS = {Schema.CHUNK_ID, Schema.PATH, Schema.START_LINE,
      Schema.END_LINE, Schema.SYMBOLS, Schema.LANGUAGE, Schema.PARENT};

  private final Cluster cluster;
  private final String index;
  private final List<ChunkDoc> chunks = new ArrayList<>();
  private final Map<String, Integer> ids = new HashMap<>();
  private final Map<String, Optional<FileEntry>> files = new HashMap<>();

  ClusterChunkIndex(Cluster cluster, String index) {
    this.cluster = cluster;
    this.index = index;
  }

  @Override
  public List<Ranked> lexical(Query query, int depth) throws IOException {
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", depth);
    body.set("query", QueryDsl.of(query));
    sortByScoreThenPlace(body);
    return ranked(search(body, Map.of("search_type", "dfs_query_then_fetch")), false);
  }

  @Override
  public List<Ranked> nearest(float[] unitVector, int depth, @Nullable String scope)
      throws IOException {
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", depth);
    ObjectNode knn = body.putObject("query").putObject("knn").putObject(IndexLayout.VECTOR);
    ArrayNode v = knn.putArray("vector");
    for (float x : unitVector) {
      v.add(x);
    }
    knn.put("k", depth);
    ObjectNode filter = knn.putObject("filter").putObject("bool");
    ArrayNode must = filter.putArray("filter");
    must.addObject().putObject("term").put(Schema.TYPE, Schema.TYPE_CHUNK);
    if (scope != null) {
      must.add(scopeFilter(scope));
    }
    sortByScoreThenPlace(body);
    return ranked(search(body, Map.of()), true);
  }

  /** Path {@code scope} or anything below it. */
  static ObjectNode scopeFilter(String scope) {
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    ArrayNode should = bool.putArray("should");
    should.addObject().putObject("term").put(Schema.PATH, scope);
    should.addObject().putObject("prefix").put(Schema.PATH, scope + "/");
    bool.put("minimum_should_match", 1);
    return q;
  }

  private static void sortByScoreThenPlace(ObjectNode body) {
    ArrayNode sort = body.putArray("sort");
    sort.addObject().putObject("_score").put("order", "desc");
    sort.addObject().putObject(Schema.PATH).put("order", "asc");
    sort.addObject().putObject(IndexLayout.ORDINAL).put("order", "asc");
    body.put("track_scores", true);
    ArrayNode source = body.putArray("_source");
    for (String f : CHUNK_FIELDS) {
      source.add(f);
    }
  }

  private JsonNode search(ObjectNode body, Map<String, String> params) throws IOException {
    return cluster.call("POST", "/" + index + "/_search", params, body);
  }

  /**
   * The hits as ranked chunks; a k-NN score (Lucene's cosine score, {@code (1 + cos) / 2}) is
   * turned back into the cosine similarity the local engine reports.
   */
  private List<Ranked> ranked(JsonNode reply, boolean cosine) {
    List<Ranked> out = new ArrayList<>();
    int rank = 0;
    for (JsonNode hit : reply.path("hits").path("hits")) {
      double score = hit.path("_score").asDouble();
      out.add(new Ranked(remember(hit.path("_source")), ++rank, cosine ? 2 * score - 1 : score));
    }
    return out;
  }

  private int remember(JsonNode src) {
    String chunkId = src.path(Schema.CHUNK_ID).asText();
    Integer id = ids.get(chunkId);
    if (id != null) {
      return id;
    }
    JsonNode symbols = src.path(Schema.SYMBOLS);
    int[] lines = new int[symbols.size()];
    List<String> names = new ArrayList<>(symbols.size());
    for (int i = 0; i < symbols.size(); i++) {
      String s = symbols.get(i).asText();
      int colon = s.indexOf(':');
      lines[i] = Integer.parseInt(s.substring(0, colon));
      names.add(s.substring(colon + 1));
    }
    JsonNode parent = src.get(Schema.PARENT);
    chunks.add(new ChunkDoc(chunkId, src.path(Schema.PATH).asText(),
        src.path(Schema.START_LINE).asInt(), src.path(Schema.END_LINE).asInt(), lines,
        List.copyOf(names), src.path(Schema.LANGUAGE).asText(),
        parent == null || parent.isNull() ? null : parent.asText()));
    ids.put(chunkId, chunks.size() - 1);
    return chunks.size() - 1;
  }

  @Override
  public ChunkDoc chunk(int doc) {
    return chunks.get(doc);
  }

  @Override
  public @Nullable FileEntry file(String path) throws IOException {
    Optional<FileEntry> e = files.get(path);
    if (e == null) {
      Cluster.Reply r = cluster.send("GET", "/" + index + "/_doc/" + ClusterIds.file(path),
          Map.of("_source_excludes", IndexLayout.GRAMS), null);
      if (r.status() == 404) {
        e = Optional.empty();
      } else if (!r.ok()) {
        throw ClusterRequestException.of("reading the manifest entry of " + path, r);
      } else {
        e = Optional.of(ClusterManifest.entry(r.body().path("_source")));
      }
      files.put(path, e);
    }
    return e.orElse(null);
  }
}
