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
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The repositories of an {@link Organisation} one search reads, as a {@link RepositoryGroup}: the
 * allowed repositories' indexes in every request's URL ({@link #indexExpression}),
 * the search's own filter as a query on {@code _index} ({@link #indexQuery}), so
 * that the statistics are those of every allowed repository whatever the search names. Uses the
 * organisation's connection; {@link #close} leaves it open. Thread-safe.
 */
public final class ClusterGroup implements RepositoryGroup {

  /** One repository's index: its name, state and the kernel's view of its record. */
  record Repository(String index, String state, CommitRecord record) {}

  private final Cluster cluster;
  private final String organisation;
  private final String target;
  private final @Nullable ObjectNode filter;
  private final String where;
  private final Map<String, Map<String, String>> pins = new ConcurrentHashMap<>();

  ClusterGroup(Cluster cluster, String organisation, RepositoryFilter allowed,
      RepositoryFilter filter, String where) {
    this.cluster = cluster;
    this.organisation = organisation;
    this.target = indexExpression(allowed, organisation);
    this.filter = indexQuery(filter, organisation);
    this.where = where;
  }

  /**
   * The index expression of the organisation's repositories {@code filter} selects, for a
   * request's URL ({@code prism-repo.payments-*,-prism-repo.payments-archive}): every index of the
   * organisation when no pattern is positive.
   */
  static String indexExpression(RepositoryFilter filter, String organisation) {
    List<String> parts = new ArrayList<>();
    List<String> patterns = filter.patterns();
    if (patterns.stream().allMatch(p -> p.startsWith("!"))) {
      parts.add(Organisation.prefix(organisation) + "*");
    }
    for (String p : patterns) {
      if (!p.startsWith("!")) {
        parts.add(Organisation.indexName(organisation, p));
      }
    }
    for (String p : patterns) {
      if (p.startsWith("!")) {
        parts.add("-" + Organisation.indexName(organisation, p.substring(1)));
      }
    }
    return String.join(",", parts);
  }

  /** {@code filter} as a query on {@code _index}, or null when it selects every repository. */
  static @Nullable ObjectNode indexQuery(RepositoryFilter filter, String organisation) {
    if (filter.all()) {
      return null;
    }
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    ArrayNode should = null;
    ArrayNode mustNot = null;
    for (String p : filter.patterns()) {
      boolean negated = p.startsWith("!");
      String index = Organisation.indexName(organisation, negated ? p.substring(1) : p);
      ObjectNode clause = Cluster.JSON.createObjectNode();
      if (index.contains("*")) {
        clause.putObject("wildcard").putObject("_index").put("value", index);
      } else {
        clause.putObject("term").put("_index", index);
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
    return "repositories " + target + " of the cluster at " + where;
  }

  /** The index expression every request names. */
  String target() {
    return target;
  }

  /** The parameters every search request carries: the allowed indexes may be none. */
  static Map<String, String> params(Map<String, String> more) {
    Map<String, String> p = new HashMap<>(more);
    p.put("ignore_unavailable", "true");
    p.put("allow_no_indices", "true");
    return p;
  }

  /** {@code must} and {@code filter} under one bool, with the search's repository filter. */
  ObjectNode restrict(ObjectNode query) {
    if (filter == null) {
      return query;
    }
    ObjectNode q = Cluster.JSON.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    bool.putArray("must").add(query);
    bool.putArray("filter").add(filter.deepCopy());
    return q;
  }

  /** The search's repository filter as a query on {@code _index}, or null. */
  @Nullable ObjectNode indexFilter() {
    return filter == null ? null : filter.deepCopy();
  }

  /** The index of repository {@code name}. */
  String indexOf(String name) {
    return Organisation.indexName(organisation, name);
  }

  /** The repository of an index of this organisation (the index name itself when not). */
  String repositoryOf(String index) {
    String name = Organisation.repositoryOf(organisation, index);
    return name == null ? index : name;
  }

  @Override
  public SortedMap<String, CommitRecord> repositories() throws IOException {
    SortedMap<String, CommitRecord> out = new TreeMap<>();
    records().forEach((name, r) -> out.put(name, r.record()));
    return out;
  }

  /**
   * Every repository's commit record and layout (one search for the records, the layout of
   * indexes not seen before in one mapping request), by name.
   */
  SortedMap<String, Repository> records() throws IOException {
    ObjectNode body = Cluster.JSON.createObjectNode();
    body.put("size", 10_000);
    body.put("track_total_hits", false);
    ObjectNode term = Cluster.JSON.createObjectNode();
    term.putObject("term").put(IndexLayout.TYPE, IndexLayout.META_TYPE);
    body.set("query", restrict(term));
    JsonNode hits = cluster.call("POST", "/" + target + "/_search", params(Map.of()), body)
        .path("hits").path("hits");
    List<String> unknown = new ArrayList<>();
    for (JsonNode h : hits) {
      String index = h.path("_index").asText();
      if (!pins.containsKey(index)) {
        unknown.add(index);
      }
    }
    for (int from = 0; from < unknown.size(); from += 40) {
      List<String> some = unknown.subList(from, Math.min(unknown.size(), from + 40));
      JsonNode m = cluster.call("GET", "/" + String.join(",", some) + "/_mapping",
          params(Map.of()), null);
      m.fields().forEachRemaining(e -> {
        Map<String, String> values = new HashMap<>();
        e.getValue().path("mappings").path("_meta").fields()
            .forEachRemaining(v -> values.put(v.getKey(), v.getValue().asText()));
        pins.put(e.getKey(), Map.copyOf(values));
      });
    }
    SortedMap<String, Repository> out = new TreeMap<>();
    for (JsonNode h : hits) {
      String index = h.path("_index").asText();
      JsonNode meta = h.path("_source");
      Map<String, String> values = new HashMap<>(pins.getOrDefault(index, Map.of()));
      putIf(values, CommitRecord.REVISION, meta.path("revision"));
      putIf(values, CommitRecord.UPDATED_AT, meta.path("updated_ms"));
      putIf(values, CommitRecord.FILES, meta.path("files"));
      putIf(values, CommitRecord.CHUNKS, meta.path("chunks"));
      putIf(values, CommitRecord.SKIPPED, meta.path("skipped"));
      if (values.containsKey(CommitRecord.CHUNKS)) {
        values.put(CommitRecord.CHUNKS_EMBEDDED, values.getOrDefault(CommitRecord.EMBEDDER_ID,
            "").isEmpty() ? "0" : values.get(CommitRecord.CHUNKS));
      }
      out.put(repositoryOf(index), new Repository(index,
          meta.path(IndexLayout.STATE).asText(""), new CommitRecord(values)));
    }
    return out;
  }

  private static void putIf(Map<String, String> values, String key, JsonNode v) {
    if (!v.isMissingNode() && !v.isNull()) {
      values.put(key, v.asText());
    }
  }

  @Override
  public StoreReader reader() {
    return new GroupReader(cluster, this);
  }

  /** Leaves the organisation's connection open. */
  @Override
  public void close() {}

  static ArrayNode array() {
    return Cluster.JSON.createArrayNode();
  }
}
