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
import org.jspecify.annotations.Nullable;

/**
 * The {@link StoreReader} of a {@link ClusterGroup}: one request per signal over the
 * organisation's index, filtered inside the query to the group's repositories ({@code
 * dfs_query_then_fetch}: the index's term statistics), as {@link ClusterReader} does for one;
 * chunks carry their repository, manifest entries and stored contents are read by repository
 * ({@code _mget} with each one's routing), exact-search candidates come by repository. Ties are broken by path, chunk ordinal, then repository. The k-NN
 * request is exact while the group's repositories count at most {@value ClusterReader#MAX_K}
 * chunks ({@link ClusterGroup#chunks}), so it finds what each repository's own request finds.
 * One thread at a time.
 */
final class GroupReader implements StoreReader {

  /** At most as many stored contents a request reads. */
  private static final int MGET = 100;
  /** At most as many documents (entries, contents) a request reads. */
  private static final int MGET_DOCS = 500;
  /** The stored contents read with the first one a search asks for. */
  private static final int FIRST_CONTENTS = 16;

  private final Cluster cluster;
  private final ClusterGroup group;
  private final GroupListing listing;
  private final ChunkTable chunks = new ChunkTable();
  /** The candidates of the requests {@link #prefetchRanked} sent, by query. */
  private final Map<Object, List<Candidate>> ranked = new HashMap<>();
  private final Map<String, Optional<FileEntry>> files = new HashMap<>();
  private final Map<String, Optional<byte[]>> contents = new HashMap<>();
  /** The announced files' positions in {@link #order}, by repository and path. */
  private final Map<String, Integer> announced = new HashMap<>();
  private List<String[]> order = List.of();
  /**
   * Whether the announced files' manifest entries are wanted ({@link #prefetchFiles}): read all at
   * once with the first entry or stored contents asked.
   */
  private boolean entriesAnnounced;
  private int batch = FIRST_CONTENTS;

  GroupReader(Cluster cluster, ClusterGroup group) {
    this.cluster = cluster;
    this.group = group;
    this.listing = new GroupListing(cluster, group);
  }

  /** The group has no one record: {@link ClusterGroup#repositories()} has each. */
  @Override
  public CommitRecord commit() {
    return CommitRecord.EMPTY;
  }

  @Override
  public List<Candidate> lexical(LexicalQuery query) throws IOException {
    List<Candidate> sent = ranked.get(query);
    if (sent != null) {
      return sent;
    }
    return lexical(query, search(lexicalBody(query), Map.of("search_type",
        "dfs_query_then_fetch")));
  }

  /**
   * The body of a BM25 request ({@code dfs_query_then_fetch}: the index's term statistics), the
   * group's repositories a filter inside the query, each part's score named in the hits.
   */
  private ObjectNode lexicalBody(LexicalQuery query) {
    ObjectNode body = ClusterReader.lexicalBody(query, group.repositoryFilter());
    ClusterReader.sortByScoreThenPlace(body);
    if (query.parts().size() > 1) {
      body.put("include_named_queries_score", true);
    }
    return body;
  }

  private List<Candidate> lexical(LexicalQuery query, JsonNode reply) {
    int parts = query.parts().size();
    List<ChunkTable.Ranked> out = new ArrayList<>();
    for (JsonNode hit : reply.path("hits").path("hits")) {
      double score = hit.path("_score").asDouble();
      out.add(new ChunkTable.Ranked(remember(hit), score,
          ClusterReader.partScores(hit, score, parts)));
    }
    return chunks.candidates(out, query.depth());
  }

  @Override
  public List<Candidate> nearest(VectorQuery query) throws IOException {
    List<Candidate> sent = ranked.get(query);
    if (sent != null) {
      return sent;
    }
    return nearest(query, search(ClusterReader.knnBody(query, group.repositoryFilter(),
        group.chunks()), Map.of()));
  }

  private List<Candidate> nearest(VectorQuery query, JsonNode reply) {
    float[] unit = query.unit();
    List<ChunkTable.Ranked> out = new ArrayList<>();
    for (JsonNode hit : reply.path("hits").path("hits")) {
      double cosine = ClusterReader.cosine(hit, unit);
      out.add(new ChunkTable.Ranked(remember(hit), cosine, new double[] {cosine}));
    }
    return chunks.candidates(out, query.depth());
  }

  /**
   * Sends the announced requests in one {@code _msearch} (the cluster runs them side by side)
   * and keeps their candidates for the calls that ask for them; the replies are read in the
   * order a search without the announcement asks (the first lexical request, the k-NN one, then
   * the others), so that its chunks are numbered alike.
   */
  @Override
  public void prefetchRanked(List<LexicalQuery> lexical, @Nullable VectorQuery vector)
      throws IOException {
    List<Object> queries = new ArrayList<>();
    StringBuilder ndjson = new StringBuilder();
    for (LexicalQuery q : lexical) {
      if (!ranked.containsKey(q) && !queries.contains(q)) {
        queries.add(q);
        ndjson.append("{\"search_type\":\"dfs_query_then_fetch\"}\n")
            .append(Cluster.JSON.writeValueAsString(lexicalBody(q))).append('\n');
      }
    }
    if (vector != null && !ranked.containsKey(vector)) {
      queries.add(vector);
      ndjson.append("{}\n").append(Cluster.JSON.writeValueAsString(ClusterReader.knnBody(vector,
          group.repositoryFilter(), group.chunks()))).append('\n');
    }
    if (queries.size() < 2) {
      return;
    }
    Cluster.Reply reply = cluster.sendBulk("/" + group.index() + "/_msearch",
        ClusterGroup.params(Map.of()), ndjson.toString().getBytes(StandardCharsets.UTF_8));
    if (!reply.ok()) {
      throw ClusterRequestException.of("POST /_msearch", reply);
    }
    JsonNode responses = reply.body().path("responses");
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < queries.size(); i++) {
      if (queries.get(i) instanceof VectorQuery) {
        order.add(Math.min(1, i), i);
      } else {
        order.add(i);
      }
    }
    for (int i : order) {
      JsonNode r = responses.path(i);
      if (r.has("error")) {
        throw new ClusterRequestException("OpenSearch refused a ranked candidate request: "
            + r.path("error").path("reason").asText(r.path("error").toString()));
      }
      Object q = queries.get(i);
      ranked.put(q, q instanceof VectorQuery v ? nearest(v, r) : lexical((LexicalQuery) q, r));
    }
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

  /** The candidates by repository, listed as the iteration goes ({@link GroupListing#list}). */
  @Override
  public Iterable<Map.Entry<String, List<String>>> filesRepositoryByRepository(GramQuery grams,
      List<String> scopes) throws IOException {
    return listing.list(grams, scopes);
  }

  @Override
  public Collection<String> paths(List<String> scopes) throws IOException {
    return files(GramQuery.all(), scopes);
  }

  private JsonNode search(ObjectNode body, Map<String, String> params) throws IOException {
    return cluster.call("POST", "/" + group.index() + "/_search", ClusterGroup.params(params),
        body);
  }

  private int remember(JsonNode hit) {
    JsonNode source = hit.path("_source");
    return chunks.remember(source, source.path(IndexLayout.REPOSITORY).asText());
  }

  @Override
  public ChunkDoc chunk(int chunk) {
    return chunks.get(chunk);
  }

  /**
   * Announces the candidates' files, reading nothing yet: the first entry or stored content asked
   * reads every announced entry with it ({@link #fetch}), so a search verified against the stored
   * copies reads its first contents and all the entries in one request.
   */
  @Override
  public void prefetchFiles(Collection<Integer> chunkIds) throws IOException {
    Map<String, String[]> wanted = new LinkedHashMap<>();
    for (int id : chunkIds) {
      ChunkDoc c = chunks.get(id);
      String repository = String.valueOf(c.repository());
      wanted.put(repository + '\0' + c.path(), new String[] {repository, c.path()});
    }
    announce(new ArrayList<>(wanted.values()));
    entriesAnnounced = true;
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
    entriesAnnounced = false;
  }

  /** A group's entries are per repository: {@link #file(String, String)}. */
  @Override
  public @Nullable FileEntry file(String path) {
    throw new UnsupportedOperationException("a group reader reads a file of a repository");
  }

  @Override
  public @Nullable FileEntry file(@Nullable String repository, String path) throws IOException {
    String r = String.valueOf(repository);
    String key = r + '\0' + path;
    if (!files.containsKey(key)) {
      List<String[]> one = List.<String[]>of(new String[] {r, path});
      fetch(List.of(), entriesAnnounced && announced.containsKey(key) ? order : one);
    }
    return files.get(key).orElse(null);
  }

  @Override
  public byte @Nullable [] content(@Nullable String repository, String path) throws IOException {
    String r = String.valueOf(repository);
    String key = r + '\0' + path;
    if (!contents.containsKey(key)) {
      Integer at = announced.get(key);
      if (at == null) {
        fetch(List.<String[]>of(new String[] {r, path}), List.of());
      } else {
        fetch(order.subList(at, Math.min(order.size(), at + batch)),
            entriesAnnounced ? order : List.of());
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
   * Reads the stored contents (with their entries) of the (repository, path) pairs of {@code
   * withContent} and the manifest entries of those of {@code entries} not read yet, in one
   * {@code _mget} of up to {@value #MGET_DOCS} documents (more in as many; {@code withContent}
   * holds at most {@value #MGET}).
   */
  private void fetch(List<String[]> withContent, List<String[]> entries) throws IOException {
    Map<String, String[]> missing = new LinkedHashMap<>();
    Map<String, Boolean> content = new HashMap<>();
    for (String[] rp : withContent) {
      String key = rp[0] + '\0' + rp[1];
      if (!contents.containsKey(key)) {
        missing.put(key, rp);
        content.put(key, true);
      }
    }
    for (String[] rp : entries) {
      String key = rp[0] + '\0' + rp[1];
      if (!files.containsKey(key) && !missing.containsKey(key)) {
        missing.put(key, rp);
        content.put(key, false);
      }
    }
    List<String> todo = new ArrayList<>();
    for (Map.Entry<String, String[]> e : missing.entrySet()) {
      if (group.reads(e.getValue()[0])) {
        todo.add(e.getKey());
      } else { // not the group's: nothing to read (its requests only return the group's)
        files.put(e.getKey(), Optional.empty());
        if (content.get(e.getKey())) {
          contents.put(e.getKey(), Optional.empty());
        }
      }
    }
    for (int from = 0; from < todo.size(); from += MGET_DOCS) {
      List<String> some = todo.subList(from, Math.min(todo.size(), from + MGET_DOCS));
      ObjectNode body = Cluster.JSON.createObjectNode();
      ArrayNode docs = body.putArray("docs");
      for (String key : some) {
        String[] rp = missing.get(key);
        ArrayNode excludes = docs.addObject().put("_index", group.index())
            .put("_id", Slice.id(rp[0], ClusterIds.file(rp[1]))).put("routing", rp[0])
            .putObject("_source").putArray("excludes");
        for (String field : (content.get(key) ? IndexLayout.GRAMS : IndexLayout.NOT_MANIFEST)
            .split(",")) {
          excludes.add(field);
        }
      }
      JsonNode got = cluster.call("POST", "/_mget", Map.of(), body).path("docs");
      for (int i = 0; i < some.size(); i++) {
        String key = some.get(i);
        String[] rp = missing.get(key);
        JsonNode d = got.path(i);
        if (d.has("error")) {
          JsonNode error = d.path("error");
          throw new ClusterRequestException("OpenSearch refused reading the manifest entry of "
              + rp[1] + " in " + rp[0] + ": " + error.path("reason").asText(error.toString()));
        }
        boolean found = d.path("found").asBoolean(false);
        JsonNode src = d.path("_source");
        files.put(key, found ? Optional.of(ClusterManifest.entry(src)) : Optional.empty());
        if (content.get(key)) {
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
