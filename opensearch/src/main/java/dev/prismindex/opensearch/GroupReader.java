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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
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

  private static final int PAGE = 2_000;
  private static final int MGET = 100;

  private final Cluster cluster;
  private final ClusterGroup group;
  private final ChunkTable chunks = new ChunkTable();
  private final Map<String, Optional<FileEntry>> files = new HashMap<>();
  private final Map<String, Optional<byte[]>> contents = new HashMap<>();

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
    SortedMap<String, List<String>> out = new TreeMap<>();
    scroll(q, h -> out.computeIfAbsent(group.repositoryOf(h.path("_index").asText()),
        k -> new ArrayList<>()).add(h.path("_source").path(IndexLayout.PATH).asText()));
    out.values().forEach(l -> l.sort(null));
    return out;
  }

  @Override
  public Collection<String> paths(List<String> scopes) throws IOException {
    return files(GramQuery.all(), scopes);
  }

  /** Visits every hit of {@code query} over the group's indexes (a scroll, page by page). */
  private void scroll(ObjectNode query, Consumer<JsonNode> visitor) throws IOException {
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", PAGE);
    body.set("query", query);
    body.putArray("sort").add("_doc");
    body.putObject("_source").putArray("includes").add(IndexLayout.PATH);
    JsonNode page = cluster.call("POST", "/" + group.target() + "/_search",
        ClusterGroup.params(Map.of("scroll", "1m")), body);
    String scrollId = page.path("_scroll_id").asText(null);
    try {
      while (true) {
        JsonNode hits = page.path("hits").path("hits");
        hits.forEach(visitor);
        if (hits.size() < PAGE || scrollId == null) {
          return;
        }
        ObjectNode next = Cluster.JSON.createObjectNode();
        next.put("scroll", "1m");
        next.put("scroll_id", scrollId);
        page = cluster.call("POST", "/_search/scroll", Map.of(), next);
        scrollId = page.path("_scroll_id").asText(scrollId);
      }
    } finally {
      if (scrollId != null) {
        ObjectNode clear = Cluster.JSON.createObjectNode();
        clear.putArray("scroll_id").add(scrollId);
        cluster.send("DELETE", "/_search/scroll", Map.of(), clear);
      }
    }
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
    fetch(new ArrayList<>(wanted.values()), false);
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
    fetch(List.<String[]>of(new String[] {r, path}), true);
    return contents.get(r + '\0' + path).orElse(null);
  }

  @Override
  public void prefetchContent(@Nullable String repository, Collection<String> paths)
      throws IOException {
    List<String[]> wanted = new ArrayList<>();
    for (String p : paths) {
      wanted.add(new String[] {String.valueOf(repository), p});
    }
    fetch(wanted, true);
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
