package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;

/**
 * One repository's documents in a cluster index: every index holds its repositories' documents
 * side by side (an organisation's every repository, a standalone index its one), each carrying
 * its repository ({@link IndexLayout#REPOSITORY}), routed by it (a repository's documents on one
 * shard) and identified within it ({@link #id}).
 *
 * @param index the cluster index
 * @param repository the repository's name in it
 */
record Slice(String index, String repository) {

  /** The document id of {@code local} (a {@link ClusterIds} id) of this repository. */
  String id(String local) {
    return id(repository, local);
  }

  /**
   * The document id of {@code local} of {@code repository}: names never hold ':' nor '+', so the
   * name with '/' as '+' (an id fit for a URL path) keeps ids of two repositories apart.
   */
  static String id(String repository, String local) {
    return repository.replace('/', '+') + ":" + local;
  }

  /** {@code more} and the routing of a request that reads or writes documents by id. */
  Map<String, String> routed(Map<String, String> more) {
    Map<String, String> p = new HashMap<>(more);
    p.put("routing", repository);
    return p;
  }

  /** A filter on this repository's documents. */
  ObjectNode filter() {
    ObjectNode q = Cluster.JSON.createObjectNode();
    q.putObject("term").put(IndexLayout.REPOSITORY, repository);
    return q;
  }

  /** The path of {@code endpoint} of the index ({@code /index/_search}). */
  String url(String endpoint) {
    return "/" + index + "/" + endpoint;
  }
}
