package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.embed.HashingEmbedder;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.engine.spi.VectorQuery;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an organisation's exact k-NN request costs against the graph search it replaces: indexes
 * the directories given as repositories (the test embedder) into an organisation of the two-node
 * test cluster (two shards, one replica), then sends each query's k-NN request (the 210 nearest,
 * a limit-10 search's) over every repository with {@code k} 210 (the graph), 1000, 2000, 4000
 * and the organisation's chunks (exact), in turn, and prints the cluster's {@code took} and the
 * wall time (p50 / p95) of each, and how many of the exact 210 the graph found.
 * Usage: as {@code scripts/opensearch-cluster} runs {@link TestCluster}, with this class and
 * the repositories' directories as arguments.
 */
public final class KnnRequestTiming {

  private KnnRequestTiming() {}

  public static void main(String[] args) throws Exception {
    List<Organisation.Source> sources = new ArrayList<>();
    for (String a : args) {
      Path root = Path.of(a);
      sources.add(new Organisation.Source(Organisation.nameOf(root), root));
    }
    OpenSearchOptions o = TestCluster.options().indexName(null).organisation("timing").shards(2)
        .replicas(1).build();
    Organisation.index(sources, o, TestCluster::local, RefreshOptions.INCREMENTAL, 2, 2);
    String index = Organisation.indexName("timing");
    List<String> queries = List.of("retry with backoff", "parse the options", "close the index",
        "read a file from disk", "count the chunks", "where is the stale index check",
        "literal pattern", "format a duration", "hash of a path", "the backend is not fresh",
        "sort by score", "open a reader", "validate the request", "write the manifest",
        "load the model", "split a line into tokens", "merge two lists", "walk the tree",
        "cache the vectors", "print the usage");
    try (Organisation org = Organisation.connect(o, RepositoryFilter.ALL)) {
      Cluster c = org.cluster();
      c.call("GET", "/_cluster/health/" + index, Map.of("wait_for_status", "green",
          "timeout", "120s"), null);
      long chunks = org.group(RepositoryFilter.ALL).chunks();
      System.out.println("chunks " + chunks);
      // k: 210 searches the graph (k = what the request returns); then more, up to the
      // organisation's chunks (exact: every chunk a segment's filter accepts is scored).
      long[] ks = {0, 1000, 2000, 4000, chunks};
      List<List<Long>> took = new ArrayList<>();
      List<List<Long>> walls = new ArrayList<>();
      for (int i = 0; i < ks.length; i++) {
        took.add(new ArrayList<>());
        walls.add(new ArrayList<>());
      }
      long found = 0;
      long wanted = 0;
      HashingEmbedder embedder = new HashingEmbedder();
      for (int round = 0; round < 4; round++) {
        for (String q : queries) {
          float[] unit = embedder.embedQuery(q);
          double n = 0;
          for (float x : unit) {
            n += x * x;
          }
          for (int i = 0; i < unit.length; i++) {
            unit[i] = (float) (unit[i] / Math.sqrt(n));
          }
          VectorQuery vq = new VectorQuery(unit, 50, 210, null, p -> true);
          Set<String> graph = new HashSet<>();
          Set<String> exact = new HashSet<>();
          for (int turn = 0; turn < ks.length; turn++) {
            int which = (turn + round) % ks.length; // each k in each place of the order
            long t0 = System.nanoTime();
            JsonNode r = c.call("POST", "/" + index + "/_search", ClusterGroup.params(Map.of()),
                ClusterReader.knnBody(vq, null, ks[which]));
            long wall = (System.nanoTime() - t0) / 1_000;
            for (JsonNode h : r.path("hits").path("hits")) {
              if (which == 0) {
                graph.add(h.path("_id").asText());
              } else if (which == ks.length - 1) {
                exact.add(h.path("_id").asText());
              }
            }
            took.get(which).add(r.path("took").asLong());
            walls.get(which).add(wall);
          }
          if (round > 0) {
            wanted += exact.size();
            exact.retainAll(graph);
            found += exact.size();
          }
        }
      }
      int warm = queries.size(); // the first round warms up
      for (int i = 0; i < ks.length; i++) {
        System.out.println("k " + Math.max(210, ks[i]) + ": took p50/p95 "
            + pct(took.get(i), warm) + " ms, wall " + pctMicros(walls.get(i), warm) + " ms");
      }
      System.out.println("graph found " + found + " of the exact " + wanted);
      c.send("DELETE", "/" + index, Map.of(), null);
    }
    System.exit(0);
  }

  private static String pct(List<Long> all, int skip) {
    long[] v = all.subList(skip, all.size()).stream().mapToLong(Long::longValue).sorted()
        .toArray();
    return v[v.length / 2] + " / " + v[(int) Math.ceil(v.length * 0.95) - 1];
  }

  private static String pctMicros(List<Long> all, int skip) {
    long[] v = all.subList(skip, all.size()).stream().mapToLong(Long::longValue).sorted()
        .toArray();
    return String.format("%.1f / %.1f", v[v.length / 2] / 1000.0,
        v[(int) Math.ceil(v.length * 0.95) - 1] / 1000.0);
  }
}
