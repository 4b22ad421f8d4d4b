package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.RepositoryGroup;
import dev.prismindex.engine.spi.StoreReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The repositories of an {@link Organisation} one search reads, as a {@link RepositoryGroup}: the
 * organisation's one index in every request's URL, the repositories the caller may search and
 * those the search selects as a filter inside every query ({@link #repositoryFilter}: a filter,
 * so the term statistics are the whole index's whatever the search names). Uses the
 * organisation's connection; {@link #close} leaves it open. Thread-safe.
 */
public final class ClusterGroup implements RepositoryGroup {

  /** One repository's record: its index, state and the kernel's view of its record. */
  record Repository(String index, String state, CommitRecord record) {}

  /** At most as many commit records a request reads. */
  private static final int PAGE = 2_000;

  private final Cluster cluster;
  private final String index;
  private final @Nullable ObjectNode filter;
  private final RepositoryFilter allowed;
  private final RepositoryFilter selected;
  private final String where;
  /** The records {@link #records} read last (null before). */
  private volatile @Nullable SortedMap<String, Repository> last;

  ClusterGroup(Cluster cluster, String index, RepositoryFilter allowed, RepositoryFilter filter,
      String where) {
    this.cluster = cluster;
    this.index = index;
    this.allowed = allowed;
    this.selected = filter;
    this.where = where;
    ObjectNode may = repositoryQuery(allowed);
    ObjectNode wants = repositoryQuery(filter);
    if (may == null || wants == null) {
      this.filter = may == null ? wants : may;
    } else {
      this.filter = Cluster.JSON.createObjectNode();
      this.filter.putObject("bool").putArray("filter").add(may).add(wants);
    }
  }

  /**
   * {@code filter} as a query on the documents' repository ({@link IndexLayout#REPOSITORY}), or
   * null when it selects every repository: a name as a term, a glob as a wildcard ({@code *},
   * the glob's one wildcard, is the query's), negated ones left out.
   */
  static @Nullable ObjectNode repositoryQuery(RepositoryFilter filter) {
    if (filter.all()) {
      return null;
    }
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    ArrayNode should = null;
    ArrayNode mustNot = null;
    for (String p : filter.patterns()) {
      boolean negated = p.startsWith("!");
      String name = negated ? p.substring(1) : p;
      ObjectNode clause = Cluster.JSON.createObjectNode();
      if (name.contains("*")) {
        clause.putObject("wildcard").putObject(IndexLayout.REPOSITORY).put("value", name);
      } else {
        clause.putObject("term").put(IndexLayout.REPOSITORY, name);
      }
      if (negated) {
        mustNot = mustNot == null ? bool.putArray("must_not") : mustNot;
        mustNot.add(clause);
      } else {
        should = should == null ? bool.putArray("should") : should;
        should.add(clause);
      }
    }
    if (should != null) {
      bool.put("minimum_should_match", 1);
    }
    return q;
  }

  @Override
  public String describe() {
    return "repositories of cluster index " + index + " at " + where;
  }

  /** The organisation's index every request names. */
  String index() {
    return index;
  }

  /** The parameters every search request carries: the index may not exist yet. */
  static Map<String, String> params(Map<String, String> more) {
    Map<String, String> p = new HashMap<>(more);
    p.put("ignore_unavailable", "true");
    p.put("allow_no_indices", "true");
    return p;
  }

  /**
   * The repositories the caller may search and the search selects, as a filter on the documents'
   * repository, or null for every one.
   */
  @Nullable ObjectNode repositoryFilter() {
    return filter == null ? null : filter.deepCopy();
  }

  /** Whether the caller may search repository {@code name} and the search selects it. */
  boolean reads(String name) {
    return allowed.matches(name) && selected.matches(name);
  }

  @Override
  public SortedMap<String, CommitRecord> repositories() throws IOException {
    SortedMap<String, CommitRecord> out = new TreeMap<>();
    records().forEach((name, r) -> out.put(name, r.record()));
    return out;
  }

  /**
   * Every repository's commit record, by name, in two requests: the index's layout ({@code _meta},
   * from the cluster state), then the commit records of the repositories the caller may search
   * and the search selects (their {@code meta} documents, filtered inside the query, as of the
   * last refresh, as a search sees them); a repository without a record is not one yet.
   */
  SortedMap<String, Repository> records() throws IOException {
    JsonNode mappings = cluster.call("GET", "/" + index + "/_mapping",
        params(Map.of("filter_path", "*.mappings._meta")), null);
    SortedMap<String, Repository> out = new TreeMap<>();
    JsonNode mapping = mappings.path(index);
    if (mapping.isMissingNode()) {
      last = out;
      return out;
    }
    Map<String, String> layout = new HashMap<>();
    mapping.path("mappings").path("_meta").fields()
        .forEachRemaining(v -> layout.put(v.getKey(), v.getValue().asText()));
    JsonNode after = null;
    while (true) {
      ObjectNode body = Cluster.JSON.createObjectNode();
      body.put("size", PAGE);
      ArrayNode must = body.putObject("query").putObject("bool").putArray("filter");
      must.addObject().putObject("term").put(IndexLayout.TYPE, IndexLayout.META_TYPE);
      if (filter != null) {
        must.add(filter.deepCopy());
      }
      body.putArray("sort").addObject().put(IndexLayout.REPOSITORY, "asc");
      body.put("track_total_hits", false);
      if (after != null) {
        body.set("search_after", after);
      }
      JsonNode hits = cluster.call("POST", "/" + index + "/_search", params(Map.of()), body)
          .path("hits").path("hits");
      for (JsonNode h : hits) {
        JsonNode meta = h.path("_source");
        String name = meta.path(IndexLayout.REPOSITORY).asText();
        out.put(name, new Repository(index, meta.path(IndexLayout.STATE).asText(""),
            ClusterRecord.values(layout, meta)));
        after = h.path("sort");
      }
      if (hits.size() < PAGE) {
        last = out;
        return out;
      }
    }
  }

  /**
   * The chunks of the group's repositories, as their commit records count them: those {@link
   * #records} read last (a search reads them first), read now when none was read. Bounds the
   * CHUNK documents a request of the group accepts, so that a k-NN request of a group of at most
   * {@value ClusterReader#MAX_K} chunks is exact ({@link ClusterReader#knnBody(
   * dev.prismindex.engine.spi.VectorQuery, ObjectNode, long)}).
   */
  long chunks() throws IOException {
    SortedMap<String, Repository> records = last;
    if (records == null) {
      records = records();
    }
    long n = 0;
    for (Repository r : records.values()) {
      n += r.record().count(CommitRecord.CHUNKS);
    }
    return n;
  }

  @Override
  public StoreReader reader() {
    return new GroupReader(cluster, this);
  }

  /** Leaves the organisation's connection open. */
  @Override
  public void close() {}
}
