package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.spi.GramQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** Lists the exact-search candidates of a {@link ClusterGroup}, repository by repository. */
record GroupListing(Cluster cluster, ClusterGroup group) {

  /** About as many candidate paths a listing request reads. */
  private static final int PAGE = 2_000;
  /** At most as many repositories a listing request reads. */
  private static final int MSEARCH = 50;
  /** A search's default result window ({@code index.max_result_window}). */
  private static final int WINDOW = 10_000;

  /**
   * One request counts each repository's candidates (an aggregation on the documents' repository,
   * nothing fetched); the iteration then lists them a few repositories a request ({@code
   * _msearch}: one repository, then twice as many each time up to {@value #MSEARCH}, and about
   * {@value #PAGE} paths; each repository's routed to its shard, sorted by path and read from doc
   * values), in repository name order, only as far as it goes.
   */
  Iterable<Map.Entry<String, List<String>>> list(GramQuery grams, List<String> scopes)
      throws IOException {
    ObjectNode q = candidateQuery(grams, scopes);
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", 0);
    body.set("query", q);
    body.putObject("aggs").putObject("repositories").putObject("terms")
        .put("field", IndexLayout.REPOSITORY).put("size", 65_536);
    SortedMap<String, Long> counts = new TreeMap<>();
    JsonNode reply = cluster.call("POST", "/" + group.index() + "/_search",
        ClusterGroup.params(Map.of()), body);
    for (JsonNode b : reply.path("aggregations").path("repositories").path("buckets")) {
      counts.put(b.path("key").asText(), b.path("doc_count").asLong());
    }
    return () -> new Iterator<>() {
      private final Iterator<Map.Entry<String, Long>> left = counts.entrySet().iterator();
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
          List<Map.Entry<String, Long>> batch = new ArrayList<>();
          long paths = 0;
          while (left.hasNext() && paths < PAGE && batch.size() < repositories) {
            Map.Entry<String, Long> e = left.next();
            batch.add(e);
            paths += e.getValue();
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
    ObjectNode repos = group.repositoryFilter();
    if (repos != null) {
      filter.add(repos);
    }
    if (!(grams instanceof GramQuery.All)) {
      bool.putArray("must").add(ClusterManifest.gramQuery(grams));
    }
    return q;
  }

  /**
   * The candidates of each repository of {@code batch} (with its count), sorted by path: one
   * {@code _msearch} of a search per repository, routed to its shard, then pages after the last
   * path for a repository with more than a result window.
   */
  private List<Map.Entry<String, List<String>>> list(ObjectNode query,
      List<Map.Entry<String, Long>> batch) throws IOException {
    StringBuilder ndjson = new StringBuilder();
    List<ObjectNode> queries = new ArrayList<>();
    for (Map.Entry<String, Long> e : batch) {
      Slice slice = new Slice(group.index(), e.getKey());
      ObjectNode one = Cluster.JSON.createObjectNode();
      one.putObject("bool").putArray("filter").add(query).add(slice.filter());
      queries.add(one);
      ndjson.append(Cluster.JSON.writeValueAsString(Cluster.JSON.createObjectNode()
          .put("index", group.index()).put("routing", e.getKey()))).append('\n');
      ndjson.append(Cluster.JSON.writeValueAsString(pathsBody(one,
          (int) Math.min(WINDOW, Math.max(1, e.getValue())), null))).append('\n');
    }
    Cluster.Reply reply = cluster.sendBulk("/" + group.index() + "/_msearch",
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
      Slice slice = new Slice(group.index(), batch.get(i).getKey());
      List<String> paths = new ArrayList<>();
      JsonNode hits = r.path("hits").path("hits");
      while (true) {
        hits.forEach(h -> paths.add(h.path("sort").path(0).asText()));
        if (hits.size() < WINDOW) {
          break;
        }
        hits = cluster.call("POST", slice.url("_search"), slice.routed(Map.of()),
            pathsBody(queries.get(i), WINDOW, paths.get(paths.size() - 1))).path("hits")
            .path("hits");
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
}
