package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.LexicalQuery;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.engine.spi.VectorCodes;
import dev.prismindex.engine.spi.VectorQuery;
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
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.jspecify.annotations.Nullable;

/**
 * The {@link StoreReader} of a repository's cluster index, for one search: BM25 with global term
 * statistics ({@code dfs_query_then_fetch}, so the number of shards does not change the ranking;
 * the parts of a several-part query as named queries, whose scores the cluster reports), k-NN on
 * the chunks' int8 vectors (Lucene HNSW, cosine) rescored by {@link VectorCodes#cosine}, gram
 * candidates and manifest entries from the FILE documents. Chunk ids are numbered in the order this
 * instance first saw them. Ties are broken by path and chunk ordinal.
 */
final class ClusterReader implements StoreReader {

  /** What a candidate request reads of each chunk: {@link #chunkDoc} and a group's ordinal. */
  private static final String[] CHUNK_FIELDS = {IndexLayout.CHUNK_ID, IndexLayout.PATH,
      IndexLayout.START_LINE, IndexLayout.END_LINE, IndexLayout.SYMBOLS, IndexLayout.LANGUAGE,
      IndexLayout.PARENT, IndexLayout.ORDINAL};

  /**
   * The most vectors one k-NN query takes: OpenSearch's limit on {@code k} and the default {@code
   * index.max_result_window}. A deep query (a seam request for thousands of hits) fetches fewer
   * than the engine asks, so its deepest candidates may differ from the local index's.
   */
  static final int MAX_K = 10_000;

  private final Cluster cluster;
  private final String index;
  private final ClusterRecord record;
  private @Nullable CommitRecord commit;
  private final List<ChunkDoc> chunks = new ArrayList<>();
  private final Map<String, Integer> ids = new HashMap<>();
  private final Map<String, Optional<FileEntry>> files = new HashMap<>();

  ClusterReader(Cluster cluster, String index, ClusterRecord record) {
    this.cluster = cluster;
    this.index = index;
    this.record = record;
  }

  /** The layout's pins and the commit record, read once; empty without an index. */
  @Override
  public CommitRecord commit() throws IOException {
    if (commit == null) {
      commit = record.layout() == null ? CommitRecord.EMPTY : record.values(record.read());
    }
    return commit;
  }

  /**
   * The search body of a lexical candidate request: the query's parts (several as named queries),
   * restricted to CHUNK documents and the query's filter, {@code depth} hits.
   */
  static ObjectNode lexicalBody(LexicalQuery query) {
    List<Query> parts = query.parts();
    ObjectNode scored;
    if (parts.size() == 1) {
      scored = QueryDsl.of(parts.get(0));
    } else {
      scored = Cluster.JSON.createObjectNode();
      ArrayNode should = scored.putObject("bool").putArray("should");
      for (int i = 0; i < parts.size(); i++) {
        ObjectNode named = should.addObject().putObject("bool");
        named.putArray("must").add(QueryDsl.of(parts.get(i)));
        named.put("_name", "p" + i);
      }
    }
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    bool.putArray("must").add(scored);
    ArrayNode filter = bool.putArray("filter");
    filter.add(QueryDsl.of(new TermQuery(new Term(IndexLayout.TYPE, IndexLayout.TYPE_CHUNK))));
    if (query.filter() != null) {
      filter.add(QueryDsl.of(query.filter()));
    }
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", query.depth());
    body.set("query", q);
    return body;
  }

  /**
   * As locally: the query's parts (one, or several as named queries whose scores the cluster
   * reports with {@code include_named_queries_score}), restricted to CHUNK documents and the
   * filter.
   */
  @Override
  public List<Candidate> lexical(LexicalQuery query) throws IOException {
    List<Query> parts = query.parts();
    ObjectNode body = lexicalBody(query);
    sortByScoreThenPlace(body);
    Map<String, String> params = parts.size() == 1
        ? Map.of("search_type", "dfs_query_then_fetch")
        : Map.of("search_type", "dfs_query_then_fetch", "include_named_queries_score", "true");
    List<Candidate> out = new ArrayList<>();
    int rank = 0;
    for (JsonNode hit : search(body, params).path("hits").path("hits")) {
      double score = hit.path("_score").asDouble();
      int chunk = remember(hit.path("_source"));
      if (parts.size() == 1) {
        out.add(new Candidate(chunk, ++rank, score));
      } else {
        double[] each = new double[parts.size()];
        JsonNode matched = hit.path("matched_queries");
        for (int i = 0; i < each.length; i++) {
          each[i] = matched.path("p" + i).asDouble(0);
        }
        out.add(new Candidate(chunk, ++rank, score, each));
      }
    }
    return out;
  }

  /**
   * As locally: the graph's {@code query.fetch()} (at most {@value #MAX_K}) nearest int8 vectors,
   * rescored by the exact cosine of the float query to each int8 vector ({@link
   * VectorCodes#cosine}), best first (ties by path
   * and chunk ordinal).
   */
  @Override
  public List<Candidate> nearest(VectorQuery query) throws IOException {
    float[] unitVector = query.unit();
    int depth = query.depth();
    int k = Math.min(query.fetch(), MAX_K);
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", k);
    ObjectNode knn = body.putObject("query").putObject("knn").putObject(IndexLayout.VECTOR);
    ArrayNode v = knn.putArray("vector");
    for (byte x : VectorCodes.int8(unitVector)) {
      v.add(x);
    }
    knn.put("k", k);
    ObjectNode filter = knn.putObject("filter").putObject("bool");
    ArrayNode must = filter.putArray("filter");
    must.addObject().putObject("term").put(IndexLayout.TYPE, IndexLayout.TYPE_CHUNK);
    if (query.filter() != null) {
      must.add(QueryDsl.of(query.filter()));
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
          ? VectorCodes.cosine(unitVector, bytes) : 2 * hit.path("_score").asDouble() - 1;
      scored.add(new Scored(remember(src), src.path(IndexLayout.PATH).asText(),
          src.path(IndexLayout.ORDINAL).asInt(), cosine));
    }
    scored.sort(Comparator.comparingDouble(Scored::cosine).reversed()
        .thenComparing(Scored::path).thenComparingInt(Scored::ordinal));
    List<Candidate> out = new ArrayList<>();
    for (Scored s : scored.subList(0, Math.min(depth, scored.size()))) {
      out.add(new Candidate(s.doc(), out.size() + 1, s.cosine()));
    }
    return out;
  }

  private record Scored(int doc, String path, int ordinal, double cosine) {}

  @Override
  public List<String> files(GramQuery grams, List<String> scopes) throws IOException {
    return ClusterManifest.gramCandidates(cluster, index, grams, scopes);
  }

  @Override
  public Collection<String> paths(List<String> scopes) throws IOException {
    return ClusterManifest.paths(cluster, index, scopes);
  }

  /** Sorts hits by score, then path, then place in the file (a total order), with chunk fields. */
  static void sortByScoreThenPlace(ObjectNode body) {
    ArrayNode sort = body.putArray("sort");
    sort.addObject().putObject("_score").put("order", "desc");
    sort.addObject().putObject(IndexLayout.PATH).put("order", "asc");
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

  /** The chunk a hit's {@code _source} describes, of {@code repository} (null: this reader's). */
  static ChunkDoc chunkDoc(JsonNode src, @Nullable String repository) {
    JsonNode symbols = src.path(IndexLayout.SYMBOLS);
    int[] lines = new int[symbols.size()];
    List<String> names = new ArrayList<>(symbols.size());
    for (int i = 0; i < symbols.size(); i++) {
      String s = symbols.get(i).asText();
      int colon = s.indexOf(':');
      lines[i] = Integer.parseInt(s.substring(0, colon));
      names.add(s.substring(colon + 1));
    }
    JsonNode parent = src.get(IndexLayout.PARENT);
    return new ChunkDoc(src.path(IndexLayout.CHUNK_ID).asText(),
        src.path(IndexLayout.PATH).asText(), src.path(IndexLayout.START_LINE).asInt(),
        src.path(IndexLayout.END_LINE).asInt(), lines,
        List.copyOf(names), src.path(IndexLayout.LANGUAGE).asText(),
        parent == null || parent.isNull() ? null : parent.asText(), repository);
  }

  private int remember(JsonNode src) {
    String chunkId = src.path(IndexLayout.CHUNK_ID).asText();
    Integer id = ids.get(chunkId);
    if (id != null) {
      return id;
    }
    chunks.add(chunkDoc(src, null));
    ids.put(chunkId, chunks.size() - 1);
    return chunks.size() - 1;
  }

  @Override
  public ChunkDoc chunk(int chunk) {
    return chunks.get(chunk);
  }

  /** One {@code _mget} for the entries of the candidates' files not read yet. */
  @Override
  public void prefetchFiles(Collection<Integer> ids) throws IOException {
    Set<String> paths = new LinkedHashSet<>();
    for (int id : ids) {
      paths.add(chunks.get(id).path());
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
        Map.of("_source_excludes", IndexLayout.NOT_MANIFEST), body);
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
