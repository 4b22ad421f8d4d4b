package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.internal.codec.Int8Vectors;
import dev.prismindex.engine.internal.search.ChunkDoc;
import dev.prismindex.engine.internal.search.ChunkIndex;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.semantic.SemanticSearcher;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The {@link ChunkIndex} of a repository's cluster index, for one search: BM25 with global term
 * statistics ({@code dfs_query_then_fetch}, so the number of shards does not change the ranking),
 * k-NN on the chunks' int8 vectors (Lucene HNSW, cosine) rescored as locally, manifest entries by id. Chunk ids are numbered
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
    List<Ranked> out = new ArrayList<>();
    int rank = 0;
    for (JsonNode hit : search(body, Map.of("search_type", "dfs_query_then_fetch"))
        .path("hits").path("hits")) {
      out.add(new Ranked(remember(hit.path("_source")), ++rank, hit.path("_score").asDouble()));
    }
    return out;
  }

  /**
   * As locally ({@code SemanticSearcher}): the graph's {@code 4 x depth + 10} nearest int8 vectors,
   * rescored by the exact cosine of the float query to each int8 vector, best first (ties by path
   * and chunk ordinal).
   */
  @Override
  public List<Ranked> nearest(float[] unitVector, int depth, FileMatcher files,
      @Nullable Query fileQuery) throws IOException {
    int k = depth * SemanticSearcher.OVER_FETCH + 10;
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", k);
    ObjectNode knn = body.putObject("query").putObject("knn").putObject(IndexLayout.VECTOR);
    ArrayNode v = knn.putArray("vector");
    for (byte x : Int8Vectors.encode(unitVector)) {
      v.add(x);
    }
    knn.put("k", k);
    ObjectNode filter = knn.putObject("filter").putObject("bool");
    ArrayNode must = filter.putArray("filter");
    must.addObject().putObject("term").put(Schema.TYPE, Schema.TYPE_CHUNK);
    if (fileQuery != null) {
      must.add(QueryDsl.of(fileQuery));
    }
    sortByScoreThenPlace(body);
    ((ArrayNode) body.get("_source")).add(IndexLayout.VECTOR);
    List<Scored> scored = new ArrayList<>();
    for (JsonNode hit : search(body, Map.of()).path("hits").path("hits")) {
      JsonNode src = hit.path("_source");
      JsonNode values = src.path(IndexLayout.VECTOR);
      byte[] bytes = new byte[values.size()];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) values.get(i).asInt();
      }
      double cosine = bytes.length == unitVector.length
          ? Int8Vectors.cosine(unitVector, bytes) : 2 * hit.path("_score").asDouble() - 1;
      scored.add(new Scored(remember(src), src.path(Schema.PATH).asText(),
          src.path(IndexLayout.ORDINAL).asInt(), cosine));
    }
    scored.sort(Comparator.comparingDouble(Scored::cosine).reversed()
        .thenComparing(Scored::path).thenComparingInt(Scored::ordinal));
    List<Ranked> out = new ArrayList<>();
    for (Scored s : scored.subList(0, Math.min(depth, scored.size()))) {
      out.add(new Ranked(s.doc(), out.size() + 1, s.cosine()));
    }
    return out;
  }

  private record Scored(int doc, String path, int ordinal, double cosine) {}

  /**
   * As locally ({@link FileMatcher#query}): scopes as exact and prefix terms; with languages or
   * globs, the set of the index's paths the filter selects (read from the FILE documents in
   * scope).
   */
  @Override
  public @Nullable Query fileQuery(FileMatcher files) throws IOException {
    if (files.all()) {
      return null;
    }
    BooleanQuery.Builder scopes = new BooleanQuery.Builder();
    for (String s : files.scopes()) {
      scopes.add(new TermQuery(new Term(Schema.PATH, s)), BooleanClause.Occur.SHOULD);
      scopes.add(new PrefixQuery(new Term(Schema.PATH, s + "/")), BooleanClause.Occur.SHOULD);
    }
    if (!files.languagesOrGlobs()) {
      return scopes.build();
    }
    List<BytesRef> paths = new ArrayList<>();
    ClusterManifest.scan(cluster, index, Schema.TYPE_FILE,
        files.scopes().isEmpty() ? null : QueryDsl.of(scopes.build()), src -> {
          String path = src.path(Schema.PATH).asText();
          if (files.test(path)) {
            paths.add(new BytesRef(path));
          }
        });
    return paths.isEmpty() ? new MatchNoDocsQuery() : new TermInSetQuery(Schema.PATH, paths);
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

  /** One {@code _mget} for the entries of the candidates' files not read yet. */
  @Override
  public void prefetchFiles(Collection<Integer> docs) throws IOException {
    Set<String> paths = new LinkedHashSet<>();
    for (int doc : docs) {
      paths.add(chunks.get(doc).path());
    }
    fetch(paths);
  }

  @Override
  public @Nullable FileEntry file(String path) throws IOException {
    fetch(List.of(path));
    return files.get(path).orElse(null);
  }

  /** Reads the manifest entries of those of {@code paths} not read yet, in one request. */
  private void fetch(Collection<String> paths) throws IOException {
    Map<String, String> missing = new LinkedHashMap<>(); // document id -> path
    for (String path : paths) {
      if (!files.containsKey(path)) {
        missing.put(ClusterIds.file(path), path);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    ObjectNode body = Cluster.JSON.createObjectNode();
    ArrayNode ids = body.putArray("ids");
    missing.keySet().forEach(ids::add);
    JsonNode reply = cluster.call("POST", "/" + index + "/_mget",
        Map.of("_source_excludes", IndexLayout.GRAMS), body);
    for (JsonNode d : reply.path("docs")) {
      String path = missing.remove(d.path("_id").asText());
      if (path == null) {
        continue;
      }
      if (d.has("error")) {
        JsonNode error = d.path("error");
        throw new ClusterRequestException("OpenSearch refused reading the manifest entry of "
            + path + ": " + error.path("reason").asText(error.toString()));
      }
      files.put(path, d.path("found").asBoolean(false)
          ? Optional.of(ClusterManifest.entry(d.path("_source"))) : Optional.empty());
    }
    if (!missing.isEmpty()) {
      throw new ClusterRequestException("OpenSearch did not answer for the manifest entry of "
          + missing.values().iterator().next());
    }
  }
}
