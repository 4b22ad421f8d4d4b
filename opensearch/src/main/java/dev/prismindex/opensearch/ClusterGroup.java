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
  private final RepositoryFilter selected;
  private final String where;

  ClusterGroup(Cluster cluster, String organisation, RepositoryFilter allowed,
      RepositoryFilter filter, String where) {
    this.cluster = cluster;
    this.organisation = organisation;
    this.target = indexExpression(allowed, organisation);
    this.filter = indexQuery(filter, organisation);
    this.selected = filter;
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
   * Every repository's commit record and layout, by name, in two requests without a search: the
   * layout ({@code _meta}) of the allowed indexes from the cluster state, those the search's filter
   * selects kept, then their commit records in one {@code _mget} (as of the last refresh, as a
   * search sees them); an index without a record is not a repository yet.
   */
  SortedMap<String, Repository> records() throws IOException {
    Map<String, String> mappingParams = params(Map.of("filter_path", "*.mappings._meta"));
    JsonNode mappings = cluster.call("GET", "/" + target + "/_mapping", mappingParams, null);
    SortedMap<String, Map<String, String>> layouts = new TreeMap<>();
    mappings.fields().forEachRemaining(e -> {
      String name = Organisation.repositoryOf(organisation, e.getKey());
      if (name != null && selected.matches(name)) {
        Map<String, String> values = new HashMap<>();
        e.getValue().path("mappings").path("_meta").fields()
            .forEachRemaining(v -> values.put(v.getKey(), v.getValue().asText()));
        layouts.put(e.getKey(), values);
      }
    });
    SortedMap<String, Repository> out = new TreeMap<>();
    if (layouts.isEmpty()) {
      return out;
    }
    ObjectNode body = Cluster.JSON.createObjectNode();
    ArrayNode docs = body.putArray("docs");
    layouts.keySet().forEach(index -> docs.addObject().put("_index", index)
        .put("_id", ClusterIds.META));
    JsonNode got = cluster.call("POST", "/_mget", Map.of("realtime", "false"), body).path("docs");
    for (JsonNode d : got) {
      String index = d.path("_index").asText();
      if (!d.path("found").asBoolean(false) || !layouts.containsKey(index)) {
        continue;
      }
      JsonNode meta = d.path("_source");
      Map<String, String> values = new HashMap<>(layouts.get(index));
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
