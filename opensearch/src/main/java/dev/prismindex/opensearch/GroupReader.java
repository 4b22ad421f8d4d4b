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
import dev.prismindex.engine.spi.VectorQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.search.Query;
import org.jspecify.annotations.Nullable;

/**
 * The {@link StoreReader} of a {@link ClusterGroup}: one request per signal over the indexes of
 * every repository of the group ({@code dfs_query_then_fetch}: term statistics of all of them),
 * as {@link ClusterReader} does for one; chunks carry their repository, manifest entries and
 * stored contents are read by repository ({@code _mget} across indexes), exact-search candidates
 * come by repository. Ties are broken by path, chunk ordinal, then repository. One thread at a
 * time.
 */
final class GroupReader implements StoreReader {

  /** About as many candidate paths a listing request reads. */
  private static final int PAGE = 2_000;
  /** At most as many repositories a listing request reads. */
  private static final int MSEARCH = 50;
  /** A search's default result window ({@code index.max_result_window}). */
  private static final int WINDOW = 10_000;
  private static final int MGET = 100;
  /** The stored contents read with the first one a search asks for. */
  private static final int FIRST_CONTENTS = 16;

  private final Cluster cluster;
  private final ClusterGroup group;
  private final ChunkTable chunks = new ChunkTable();
  private final Map<String, Optional<FileEntry>> files = new HashMap<>();
  private final Map<String, Optional<byte[]>> contents = new HashMap<>();
  /** The announced files' positions in {@link #order}, by repository and path. */
  private final Map<String, Integer> announced = new HashMap<>();
  private List<String[]> order = List.of();
  private int batch = FIRST_CONTENTS;

  GroupReader(Cluster cluster, ClusterGroup group) {
    this.cluster = cluster;
    this.group = group;
  }

  /** The group has no one record: {@link ClusterGroup#repositories()} has each. */
  @Override
  public CommitRecord commit() {
    return CommitRecord.EMPTY;
  }

  @Override
  public List<Candidate> lexical(LexicalQuery query) throws IOException {
    List<Query> parts = query.parts();
    ObjectNode body = ClusterReader.lexicalBody(query);
    ObjectNode repos = group.indexFilter();
    if (repos != null) {
      // Not in the query: a shard of another repository would rewrite it to "no document" and
      // then count no term statistics. After the query, the statistics are every repository's.
      body.set("post_filter", repos);
    }
    ClusterReader.sortByScoreThenPlace(body);
    Map<String, String> params = new HashMap<>();
    params.put("search_type", "dfs_query_then_fetch");
    if (parts.size() > 1) {
      params.put("include_named_queries_score", "true");
    }
    List<ChunkTable.Ranked> ranked = new ArrayList<>();
    for (JsonNode hit : search(body, params).path("hits").path("hits")) {
      double score = hit.path("_score").asDouble();
      ranked.add(new ChunkTable.Ranked(remember(hit), score,
          ClusterReader.partScores(hit, score, parts.size())));
    }
    return chunks.candidates(ranked, query.depth());
  }

  @Override
  public List<Candidate> nearest(VectorQuery query) throws IOException {
    float[] unit = query.unit();
    ObjectNode body = ClusterReader.knnBody(query, group.indexFilter());
    List<ChunkTable.Ranked> ranked = new ArrayList<>();
    for (JsonNode hit : search(body, Map.of()).path("hits").path("hits")) {
      double cosine = ClusterReader.cosine(hit, unit);
      ranked.add(new ChunkTable.Ranked(remember(hit), cosine, new double[] {cosine}));
    }
    return chunks.candidates(ranked, query.depth());
  }

  @Override
  public List<String> files(GramQuery grams, List<String> scopes) throws IOException {
    TreeSet<String> out = new TreeSet<>();
    filesByRepository(grams, scopes).values().forEach(out::addAll);
    return new ArrayList<>(out);
  }

  @Override
  public SortedMap<String, List<String>> filesByRepository(GramQuery grams, List<String> scopes)
      throws IOException {
    SortedMap<String, List<String>> out = new TreeMap<>();
    try {
      for (Map.Entry<String, List<String>> e : filesRepositoryByRepository(grams, scopes)) {
        out.put(e.getKey(), e.getValue());
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return out;
  }

  /**
   * One request counts each repository's candidates (an aggregation on {@code _index}, nothing
   * fetched); the iteration then lists them a few repositories a request ({@code _msearch}: one
   * repository, then twice as many each time up to {@value #MSEARCH}, and about {@value #PAGE}
   * paths; each repository's sorted by path and read from doc values), in repository name order,
   * only as far as it goes.
   */
  @Override
  public Iterable<Map.Entry<String, List<String>>> filesRepositoryByRepository(GramQuery grams,
      List<String> scopes) throws IOException {
    ObjectNode q = candidateQuery(grams, scopes);
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", 0);
    body.set("query", q);
    body.putObject("aggs").putObject("repositories").putObject("terms").put("field", "_index")
        .put("size", 65_536);
    SortedMap<String, Counted> counts = new TreeMap<>();
    for (JsonNode b : search(body, Map.of()).path("aggregations").path("repositories")
        .path("buckets")) {
      String index = b.path("key").asText();
      counts.put(group.repositoryOf(index), new Counted(index, b.path("doc_count").asLong()));
    }
    return () -> new Iterator<>() {
      private final Iterator<Map.Entry<String, Counted>> left = counts.entrySet().iterator();
      private final ArrayDeque<Map.Entry<String, List<String>>> listed = new ArrayDeque<>();
      private int repositories = 1;

      @Override
      public boolean hasNext() {
        return !listed.isEmpty() || left.hasNext();
      }

      @Override
      public Map.Entry<String, List<String>> next() {
        if (listed.isEmpty()) {
          if (!left.hasNext()) {
            throw new NoSuchElementException();
          }
          List<Map.Entry<String, Counted>> batch = new ArrayList<>();
          long paths = 0;
          while (left.hasNext() && paths < PAGE && batch.size() < repositories) {
            Map.Entry<String, Counted> e = left.next();
            batch.add(e);
            paths += e.getValue().count();
          }
          repositories = Math.min(MSEARCH, repositories * 2);
          try {
            listed.addAll(list(q, batch));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return listed.removeFirst();
      }
    };
  }

  /** A repository's index and its number of candidates. */
  private record Counted(String index, long count) {}

  /** The FILE documents {@code grams} may match under {@code scopes}, in the search's filter. */
  private ObjectNode candidateQuery(GramQuery grams, List<String> scopes) {
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    ArrayNode filter = bool.putArray("filter");
    filter.addObject().putObject("term").put(IndexLayout.TYPE, IndexLayout.TYPE_FILE);
    JsonNode scope = ClusterManifest.scopeFilter(scopes.isEmpty() ? null : scopes);
    if (scope != null) {
      filter.add(scope);
    }
    ObjectNode repos = group.indexFilter();
    if (repos != null) {
      filter.add(repos);
    }
    if (!(grams instanceof GramQuery.All)) {
      bool.putArray("must").add(ClusterManifest.gramQuery(grams));
    }
    return q;
  }

  /**
   * The candidates of each repository of {@code batch}, sorted by path: one {@code _msearch}
   * naming their indexes, then pages after the last path for a repository with more than a
   * result window.
   */
  private List<Map.Entry<String, List<String>>> list(ObjectNode query,
      List<Map.Entry<String, Counted>> batch) throws IOException {
    StringBuilder ndjson = new StringBuilder();
    List<String> indexes = new ArrayList<>();
    for (Map.Entry<String, Counted> e : batch) {
      indexes.add(e.getValue().index());
      ndjson.append(Cluster.JSON.writeValueAsString(Cluster.JSON.createObjectNode()
          .put("index", e.getValue().index()))).append('\n');
      ndjson.append(Cluster.JSON.writeValueAsString(pathsBody(query,
          (int) Math.min(WINDOW, Math.max(1, e.getValue().count())), null))).append('\n');
    }
    Cluster.Reply reply = cluster.sendBulk("/" + String.join(",", indexes) + "/_msearch",
        ClusterGroup.params(Map.of()), ndjson.toString().getBytes(StandardCharsets.UTF_8));
    if (!reply.ok()) {
      throw ClusterRequestException.of("POST /_msearch", reply);
    }
    List<Map.Entry<String, List<String>>> out = new ArrayList<>();
    JsonNode responses = reply.body().path("responses");
    for (int i = 0; i < batch.size(); i++) {
      JsonNode r = responses.path(i);
      if (r.has("error")) {
        throw new ClusterRequestException("OpenSearch refused listing the candidates of "
            + batch.get(i).getKey() + ": " + r.path("error").path("reason")
                .asText(r.path("error").toString()));
      }
      String index = batch.get(i).getValue().index();
      List<String> paths = new ArrayList<>();
      JsonNode hits = r.path("hits").path("hits");
      while (true) {
        hits.forEach(h -> paths.add(h.path("sort").path(0).asText()));
        if (hits.size() < WINDOW) {
          break;
        }
        hits = cluster.call("POST", "/" + index + "/_search", ClusterGroup.params(Map.of()),
            pathsBody(query, WINDOW, paths.get(paths.size() - 1))).path("hits").path("hits");
      }
      paths.sort(null);
      out.add(Map.entry(batch.get(i).getKey(), paths));
    }
    return out;
  }

  /** A search for up to {@code size} candidate paths after {@code after}: sort values only. */
  private static ObjectNode pathsBody(ObjectNode query, int size, @Nullable String after) {
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", size);
    body.set("query", query);
    body.putArray("sort").addObject().put(IndexLayout.PATH, "asc");
    body.put("_source", false);
    body.put("track_total_hits", false);
    if (after != null) {
      body.putArray("search_after").add(after);
    }
    return body;
  }

  @Override
  public Collection<String> paths(List<String> scopes) throws IOException {
    return files(GramQuery.all(), scopes);
  }

  private JsonNode search(ObjectNode body, Map<String, String> params) throws IOException {
    return cluster.call("POST", "/" + group.target() + "/_search", ClusterGroup.params(params),
        body);
  }

  private int remember(JsonNode hit) {
    return chunks.remember(hit.path("_source"), group.repositoryOf(hit.path("_index").asText()));
  }

  @Override
  public ChunkDoc chunk(int chunk) {
    return chunks.get(chunk);
  }

  @Override
  public void prefetchFiles(Collection<Integer> chunkIds) throws IOException {
    Map<String, String[]> wanted = new LinkedHashMap<>();
    for (int id : chunkIds) {
      ChunkDoc c = chunks.get(id);
      String repository = String.valueOf(c.repository());
      wanted.put(repository + '\0' + c.path(), new String[] {repository, c.path()});
    }
    List<String[]> read = new ArrayList<>(wanted.values());
    fetch(read, false);
    announce(read);
  }

  /**
   * Remembers the order in which stored contents are about to be read: a content not read yet is
   * read with the next ones announced, {@value #FIRST_CONTENTS} at first, twice as many each time
   * up to {@value #MGET}, so that a search that stops early reads few more than it uses.
   */
  private void announce(List<String[]> files) {
    announced.clear();
    for (String[] rp : files) {
      announced.putIfAbsent(rp[0] + '\0' + rp[1], announced.size());
    }
    order = files;
    batch = FIRST_CONTENTS;
  }

  /** A group's entries are per repository: {@link #file(String, String)}. */
  @Override
  public @Nullable FileEntry file(String path) {
    throw new UnsupportedOperationException("a group reader reads a file of a repository");
  }

  @Override
  public @Nullable FileEntry file(@Nullable String repository, String path) throws IOException {
    String r = String.valueOf(repository);
    fetch(List.<String[]>of(new String[] {r, path}), false);
    return files.get(r + '\0' + path).orElse(null);
  }

  @Override
  public byte @Nullable [] content(@Nullable String repository, String path) throws IOException {
    String r = String.valueOf(repository);
    String key = r + '\0' + path;
    if (!contents.containsKey(key)) {
      Integer at = announced.get(key);
      if (at == null) {
        fetch(List.<String[]>of(new String[] {r, path}), true);
      } else {
        fetch(order.subList(at, Math.min(order.size(), at + batch)), true);
        batch = Math.min(MGET, batch * 2);
      }
    }
    return contents.get(key).orElse(null);
  }

  /** Announces {@code paths} ({@link #announce}); reads none of them yet. */
  @Override
  public void prefetchContent(@Nullable String repository, Collection<String> paths) {
    List<String[]> wanted = new ArrayList<>();
    for (String p : paths) {
      wanted.add(new String[] {String.valueOf(repository), p});
    }
    announce(wanted);
  }

  /**
   * Reads the manifest entries (or the contents, with the entries) of the (repository, path)
   * pairs not read yet: {@value #MGET} per request.
   */
  private void fetch(List<String[]> wanted, boolean content) throws IOException {
    Map<String, String[]> missing = new LinkedHashMap<>();
    for (String[] rp : wanted) {
      String key = rp[0] + '\0' + rp[1];
      if (!(content ? contents : files).containsKey(key)) {
        missing.put(key, rp);
      }
    }
    List<String[]> todo = new ArrayList<>(missing.values());
    for (int from = 0; from < todo.size(); from += MGET) {
      List<String[]> some = todo.subList(from, Math.min(todo.size(), from + MGET));
      ObjectNode body = Cluster.JSON.createObjectNode();
      ArrayNode docs = body.putArray("docs");
      for (String[] rp : some) {
        docs.addObject().put("_index", group.indexOf(rp[0])).put("_id", ClusterIds.file(rp[1]));
      }
      JsonNode reply = cluster.call("POST", "/_mget", content ? Map.of("_source_excludes",
          IndexLayout.GRAMS) : Map.of("_source_excludes", IndexLayout.NOT_MANIFEST), body);
      JsonNode got = reply.path("docs");
      for (int i = 0; i < some.size(); i++) {
        String key = some.get(i)[0] + '\0' + some.get(i)[1];
        JsonNode d = got.path(i);
        if (d.has("error")) {
          JsonNode error = d.path("error");
          throw new ClusterRequestException("OpenSearch refused reading the manifest entry of "
              + some.get(i)[1] + " in " + some.get(i)[0] + ": "
              + error.path("reason").asText(error.toString()));
        }
        boolean found = d.path("found").asBoolean(false);
        JsonNode src = d.path("_source");
        files.put(key, found ? Optional.of(ClusterManifest.entry(src)) : Optional.empty());
        if (content) {
          byte[] bytes = null;
          if (found && src.hasNonNull(IndexLayout.CONTENT)) {
            bytes = src.path(IndexLayout.CONTENT).asText().getBytes(StandardCharsets.UTF_8);
          } else if (found && src.hasNonNull(IndexLayout.CONTENT_BYTES)) {
            bytes = Base64.getDecoder().decode(src.path(IndexLayout.CONTENT_BYTES).asText());
          }
          contents.put(key, Optional.ofNullable(bytes));
        }
      }
    }
  }
}
