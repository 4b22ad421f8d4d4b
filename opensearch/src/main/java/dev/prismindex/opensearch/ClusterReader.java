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
 * The {@link StoreReader} of a repository's slice of a cluster index ({@link Slice}: every request
 * filtered to its documents inside the query), for one search: BM25 with global term statistics
 * ({@code dfs_query_then_fetch} over the whole index, so neither the number of shards nor which
 * repositories a search names changes the ranking;
 * the parts of a several-part query as named queries, whose scores the cluster reports), k-NN on
 * the chunks' int8 vectors (Lucene HNSW, cosine) rescored by {@link VectorCodes#cosine}, gram
 * candidates and manifest entries from the FILE documents. Chunk ids are numbered in the order this
 * instance first saw them. Ties are broken by path and chunk ordinal.
 */
final class ClusterReader implements StoreReader {

  /** What a candidate request reads of each chunk: {@link #chunkDoc}, its ordinal, repository. */
  private static final String[] CHUNK_FIELDS = {IndexLayout.CHUNK_ID, IndexLayout.PATH,
      IndexLayout.REPOSITORY,
      IndexLayout.START_LINE, IndexLayout.END_LINE, IndexLayout.SYMBOLS, IndexLayout.LANGUAGE,
      IndexLayout.PARENT, IndexLayout.ORDINAL};

  /**
   * The most vectors one k-NN query takes: OpenSearch's limit on {@code k} and the default {@code
   * index.max_result_window}. A deep query (a seam request for thousands of hits) fetches fewer
   * than the engine asks, so its deepest candidates may differ from the local index's.
   */
  static final int MAX_K = 10_000;

  private final Cluster cluster;
  private final Slice slice;
  private final ClusterRecord record;
  private @Nullable CommitRecord commit;
  private final ChunkTable chunks = new ChunkTable();
  private final Map<String, Optional<FileEntry>> files = new HashMap<>();

  ClusterReader(Cluster cluster, Slice slice, ClusterRecord record) {
    this.cluster = cluster;
    this.slice = slice;
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
   * restricted to CHUNK documents of the repositories {@code repositories} selects (null: all), and to the
   * query's filter, {@code depth} hits. The restriction is a filter (no score): the term
   * statistics stay the whole index's.
   */
  static ObjectNode lexicalBody(LexicalQuery query, @Nullable ObjectNode repositories) {
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
    if (repositories != null) {
      filter.add(repositories);
    }
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
    ObjectNode body = lexicalBody(query, slice.filter());
    sortByScoreThenPlace(body);
    Map<String, String> params = parts.size() == 1
        ? Map.of("search_type", "dfs_query_then_fetch")
        : Map.of("search_type", "dfs_query_then_fetch", "include_named_queries_score", "true");
    List<Candidate> out = new ArrayList<>();
    int rank = 0;
    for (JsonNode hit : search(body, params).path("hits").path("hits")) {
      double score = hit.path("_score").asDouble();
      out.add(new Candidate(chunks.remember(hit.path("_source"), null), ++rank, score,
          partScores(hit, score, parts.size())));
    }
    return out;
  }

  /**
   * The scores of a lexical hit's query parts: its score for a one-part query, else each named
   * part's ({@code p0}, {@code p1}, ...; 0 where the part did not match).
   */
  static double[] partScores(JsonNode hit, double score, int parts) {
    if (parts == 1) {
      return new double[] {score};
    }
    double[] each = new double[parts];
    JsonNode matched = hit.path("matched_queries");
    for (int i = 0; i < each.length; i++) {
      each[i] = matched.path("p" + i).asDouble(0);
    }
    return each;
  }

  /**
   * As locally: the graph's {@code query.fetch()} (at most {@value #MAX_K}) nearest int8 vectors,
   * rescored by the exact cosine of the float query to each int8 vector ({@link
   * VectorCodes#cosine}), best first (ties by path
   * and chunk ordinal).
   */
  @Override
  public List<Candidate> nearest(VectorQuery query) throws IOException {
    float[] unit = query.unit();
    List<ChunkTable.Ranked> ranked = new ArrayList<>();
    for (JsonNode hit : search(knnBody(query, slice.filter()), Map.of()).path("hits").path("hits")) {
      double cosine = cosine(hit, unit);
      ranked.add(new ChunkTable.Ranked(chunks.remember(hit.path("_source"), null), cosine,
          new double[] {cosine}));
    }
    return chunks.candidates(ranked, query.depth());
  }

  /**
   * The search body of a k-NN candidate request: the {@code query.fetch()} (at most {@value
   * #MAX_K}) nearest int8 vectors among the CHUNK documents that pass the query's filter and
   * {@code also} (when not null), with their chunk fields and vectors.
   */
  static ObjectNode knnBody(VectorQuery query, @Nullable ObjectNode also) {
    return knnBody(query, also, 0);
  }

  /**
   * {@link #knnBody(VectorQuery, ObjectNode)} of a request whose filter accepts at most {@code
   * chunks} CHUNK documents: when they are at most {@value #MAX_K}, {@code k} (the vectors each
   * segment gives) covers them all, so each segment's search is exact (Lucene scores every
   * vector a k-NN filter accepts when they are at most {@code k}, instead of searching the HNSW
   * graph with {@code k} candidates); the request still returns the {@code query.fetch()} best.
   * The answer is then the same whichever repositories the filter names and however the graphs
   * were built. More chunks (or 0, unknown): the graph, {@code k} = {@code query.fetch()}.
   */
  static ObjectNode knnBody(VectorQuery query, @Nullable ObjectNode also, long chunks) {
    int size = Math.min(query.fetch(), MAX_K);
    int k = chunks > size && chunks <= MAX_K ? (int) chunks : size;
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", size);
    ObjectNode knn = body.putObject("query").putObject("knn").putObject(IndexLayout.VECTOR);
    ArrayNode v = knn.putArray("vector");
    for (byte x : VectorCodes.int8(query.unit())) {
      v.add(x);
    }
    knn.put("k", k);
    ArrayNode must = knn.putObject("filter").putObject("bool").putArray("filter");
    must.addObject().putObject("term").put(IndexLayout.TYPE, IndexLayout.TYPE_CHUNK);
    if (query.filter() != null) {
      must.add(QueryDsl.of(query.filter()));
    }
    if (also != null) {
      must.add(also);
    }
    sortByScoreThenPlace(body);
    ((ArrayNode) body.get("_source")).add(IndexLayout.VECTOR);
    return body;
  }

  /**
   * A k-NN hit's cosine to {@code unit}: exact from its int8 vector ({@link VectorCodes#cosine}),
   * or from the cluster's score when the vector has another dimension.
   */
  static double cosine(JsonNode hit, float[] unit) {
    JsonNode values = hit.path("_source").path(IndexLayout.VECTOR);
    byte[] bytes = new byte[values.size()];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) values.get(i).asInt();
    }
    return bytes.length == unit.length
        ? VectorCodes.cosine(unit, bytes) : 2 * hit.path("_score").asDouble() - 1;
  }

  @Override
  public List<String> files(GramQuery grams, List<String> scopes) throws IOException {
    return ClusterManifest.gramCandidates(cluster, slice, grams, scopes);
  }

  @Override
  public Collection<String> paths(List<String> scopes) throws IOException {
    return ClusterManifest.paths(cluster, slice, scopes);
  }

  /** Sorts hits by score, then path, then place in the file (a total order), with chunk fields. */
  static void sortByScoreThenPlace(ObjectNode body) {
    ArrayNode sort = body.putArray("sort");
    sort.addObject().putObject("_score").put("order", "desc");
    sort.addObject().putObject(IndexLayout.PATH).put("order", "asc");
    sort.addObject().putObject(IndexLayout.ORDINAL).put("order", "asc");
    body.put("track_scores", true);
    // No hit count: nothing reads it, and counting visits every match.
    body.put("track_total_hits", false);
    ArrayNode source = body.putArray("_source");
    for (String f : CHUNK_FIELDS) {
      source.add(f);
    }
  }

  private JsonNode search(ObjectNode body, Map<String, String> params) throws IOException {
    return cluster.call("POST", slice.url("_search"), params, body);
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
        missing.put(slice.id(ClusterIds.file(path)), path);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    ObjectNode body = Cluster.JSON.createObjectNode();
    ArrayNode docs = body.putArray("docs");
    missing.keySet().forEach(id -> docs.addObject().put("_id", id)
        .put("routing", slice.repository()));
    JsonNode reply = cluster.call("POST", slice.url("_mget"),
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
