package dev.prismindex.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.GroupSearch;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.opensearch.OpenSearchOptions;
import dev.prismindex.opensearch.OpenSearchStore;
import dev.prismindex.opensearch.Organisation;
import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The scale measurement of an organisation on a cluster (issue 42 item 3; {@code
 * scripts/bench-scale} runs it): indexes every repository under a directory into one organisation
 * ({@link Organisation#index}), then reports index throughput, the cluster's size per source MB,
 * query latency p50 / p95 over all repositories for the literal, lexical and hybrid modes, whether
 * literal answers equal each repository's own, and the cluster's BM25 candidate request alone over
 * the organisation's index (one shared index, routed by repository). Not a JMH benchmark: one run
 * of a large corpus, figures printed as Markdown.
 *
 * <p>Arguments: {@code --opensearch-url URL --repos DIR [--organisation NAME] [--model ID]
 * [--parallel N] [--bulk-in-flight N] [--rounds N] [--reuse] [--shards N]} ({@code --shards}: the
 * primary shards of the organisation's index when it is created, default 2).
 */
public final class ScaleBench {

  /** Queries of the ranked modes: descriptions and identifiers common across code bases. */
  static final List<String> RANKED = List.of("parse configuration file", "http client timeout",
      "read json from file", "retry with backoff", "NewReader", "serialize to string",
      "command line arguments", "hash function", "encode base64", "logger", "iterator over items",
      "error handling wrapper", "open database connection", "sort slice", "compare versions",
      "render template", "thread pool", "cache eviction", "parse url", "unit test helper");
  /** Literal queries: exact strings. */
  static final List<String> LITERAL = List.of("Copyright", "import json", "func New",
      "errors.New(", "self.assertEqual", "fn main", "unwrap()", "require(", "TODO",
      "def __init__(self", "return nil, err", "package main", "impl Default for",
      "public static void", "module.exports");

  private ScaleBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new TreeMap<>();
    List<String> flags = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--reuse")) {
        flags.add(args[i]);
      } else {
        a.put(args[i], args[++i]);
      }
    }
    URI url = URI.create(require(a, "--opensearch-url"));
    Path dir = Path.of(require(a, "--repos"));
    String org = a.getOrDefault("--organisation", "scale");
    int parallel = Integer.parseInt(a.getOrDefault("--parallel", "2"));
    int bulk = Integer.parseInt(a.getOrDefault("--bulk-in-flight", "2"));
    int rounds = Integer.parseInt(a.getOrDefault("--rounds", "5"));
    int shards = Integer.parseInt(a.getOrDefault("--shards", "2"));
    String modelId = a.getOrDefault("--model", "prism-code-v1-t1");
    Embedder model = EmbedderProvider.find(modelId).orElseThrow(
        () -> new IllegalArgumentException("no embedding model " + modelId)).create();
    boolean reuse = flags.contains("--reuse");

    List<Organisation.Source> sources = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isDirectory).sorted()::iterator) {
        sources.add(new Organisation.Source(Organisation.nameOf(p), p));
      }
    }
    long sourceBytes = 0;
    long files = 0;
    for (Organisation.Source s : sources) {
      for (String path : HybridIndex.walk(local(s.root(), model))) {
        Path f = s.root().resolve(path);
        if (Files.isRegularFile(f)) {
          sourceBytes += Files.size(f);
          files++;
        }
      }
    }
    OpenSearchOptions cluster = OpenSearchOptions.builder(url).organisation(org).shards(shards)
        .build();
    String index = Organisation.indexName(org);
    Cluster http = new Cluster(url);
    p("# Organisation scale run: %d repositories", sources.size());
    p("");
    p("- corpus: %s, %d files walked, %.1f MB of source (the files the walk keeps)", dir, files,
        sourceBytes / 1e6);
    p("- model: %s (dimension %d); parallel %d, bulk requests in flight %d; index %s, %d primary"
        + " shards when created", model.id(), model.dimension(), parallel, bulk, index, shards);
    p("- load before: %s", load());
    if (!reuse) {
      http.send("DELETE", "/" + index, null);
      long t0 = System.nanoTime();
      List<Organisation.Outcome> done = Organisation.index(sources, cluster,
          root -> local(root, model), RefreshOptions.INCREMENTAL, parallel, bulk);
      double seconds = (System.nanoTime() - t0) / 1e9;
      long chunks = 0;
      int failed = 0;
      for (Organisation.Outcome o : done) {
        if (o.error() != null) {
          failed++;
          p("- failed: %s: %s", o.name(), o.error());
        } else {
          chunks += o.stats().chunksWritten();
        }
      }
      p("- indexing: %.0f s wall, %.2f MB/s of source, %.0f files/s, %d chunks (%.0f chunks/s),"
          + " %d failed", seconds, sourceBytes / 1e6 / seconds, files / seconds, chunks,
          chunks / seconds, failed);
      p("- load after indexing: %s", load());
    }
    // The load ends merged, its replicas restored: they copy the merged primaries.
    long tg = System.nanoTime();
    JsonNode health = http.send("GET", "/_cluster/health/" + index,
        "wait_for_status=green&timeout=20m", null);
    p("- index %s %.0f s after the load (replica recovery)", health.path("status").asText(),
        (System.nanoTime() - tg) / 1e9);
    http.send("POST", "/" + index + "/_refresh", null);
    JsonNode stats = http.send("GET", "/" + index + "/_stats/store,docs", null);
    long primary = stats.path("_all").path("primaries").path("store").path("size_in_bytes")
        .asLong();
    long total = stats.path("_all").path("total").path("store").path("size_in_bytes").asLong();
    long docs = stats.path("_all").path("primaries").path("docs").path("count").asLong();
    p("- cluster size: primaries %.1f MB (%.2f x source), with replicas %.1f MB; %d documents",
        primary / 1e6, primary / (double) sourceBytes, total / 1e6, docs);
    JsonNode nodes = http.send("GET", "/_nodes/stats/jvm,indices", null).path("nodes");
    // Nodes in one JVM (the test cluster) report the same heap: count each process once.
    JsonNode jvms = http.send("GET", "/_nodes/jvm", null).path("nodes");
    Map<String, long[]> heaps = new TreeMap<>();
    long segments = 0;
    for (Map.Entry<String, JsonNode> e : nodes.properties()) {
      JsonNode n = e.getValue();
      heaps.put(n.path("host").asText() + ":" + jvms.path(e.getKey()).path("jvm").path("pid")
          .asText(), new long[] {n.path("jvm").path("mem").path("heap_used_in_bytes").asLong(),
              n.path("jvm").path("mem").path("heap_max_in_bytes").asLong()});
      segments += n.path("indices").path("segments").path("count").asLong();
    }
    long heap = heaps.values().stream().mapToLong(h -> h[0]).sum();
    long heapMax = heaps.values().stream().mapToLong(h -> h[1]).sum();
    JsonNode copies = http.send("GET", "/_cat/shards/" + index + "?format=json", null);
    p("- cluster: %d nodes, %d shard copies of the organisation, %d segments, heap used %.0f MB"
        + " of %.0f MB (%d JVMs)", nodes.size(), copies.size(), segments, heap / 1e6,
        heapMax / 1e6, heaps.size());
    p("");

    try (Organisation o = Organisation.connect(cluster, RepositoryFilter.ALL);
        GroupSearch search = o.search(RepositoryFilter.ALL, new GroupSearch.Options(Map.of(),
            model, true, HybridIndexOptions.DEFAULT_MAX_FILE_BYTES))) {
      p("| mode | queries x rounds | p50 ms | p95 ms | max ms | hits per query |");
      p("| --- | ---: | ---: | ---: | ---: | ---: |");
      for (SearchMode mode : List.of(SearchMode.INDEXED_LITERAL, SearchMode.LEXICAL,
          SearchMode.HYBRID)) {
        List<String> queries = mode == SearchMode.INDEXED_LITERAL ? LITERAL : RANKED;
        SearchOpts opts = SearchOpts.builder().limit(10).mode(mode).build();
        for (String q : queries) {
          search.search(q, opts); // warm-up, untimed
        }
        List<Long> nanos = new ArrayList<>();
        long hits = 0;
        for (int r = 0; r < rounds; r++) {
          for (String q : queries) {
            long t = System.nanoTime();
            hits += search.search(q, opts).size();
            nanos.add(System.nanoTime() - t);
          }
        }
        Percentiles pc = new Percentiles(nanos.stream().mapToLong(Long::longValue).toArray());
        p("| %s | %d x %d | %.1f | %.1f | %.1f | %.1f |", mode.wireName(), queries.size(), rounds,
            pc.ms(50), pc.ms(95), pc.maxMs(), hits / (double) nanos.size());
      }
      p("");
      p("- load after the queries: %s", load());
      // Literal answers over every repository against each repository searched alone.
      int same = 0;
      int compared = 0;
      for (String q : LITERAL.subList(0, 6)) {
        SearchOpts opts = SearchOpts.builder().limit(200).mode(SearchMode.INDEXED_LITERAL)
            .build();
        List<String> together = new ArrayList<>();
        for (Hit h : search.search(q, opts)) {
          together.add(h.repo() + ":" + h.path() + ":" + h.line() + ":" + h.snippet());
        }
        List<String> alone = new ArrayList<>();
        for (Organisation.Source s : new TreeMap<>(byName(sources)).values()) {
          if (alone.size() >= 200) {
            break;
          }
          OpenSearchOptions one = cluster.toBuilder().repository(s.name()).build();
          try (HybridIndex idx = OpenSearchStore.openIndex(local(s.root(), model), one)) {
            for (Hit h : idx.search(q, opts)) {
              alone.add(s.name() + ":" + h.path() + ":" + h.line() + ":" + h.snippet());
            }
          }
        }
        compared++;
        if (together.equals(alone.subList(0, Math.min(200, alone.size())))) {
          same++;
        }
      }
      p("- literal answers over all repositories identical to each repository searched alone"
          + " (first 200 matches, working trees): %d of %d queries", same, compared);
    }

    // The cluster's BM25 candidate request alone, as scale-out.md compares it.
    p("");
    p("| candidate request (BM25, dfs, top 50) | p50 ms | p95 ms |");
    p("| --- | ---: | ---: |");
    for (String target : List.of(index)) {
      List<Long> nanos = new ArrayList<>();
      for (int r = 0; r <= rounds; r++) {
        for (String q : RANKED) {
          String body = bm25(q);
          long t = System.nanoTime();
          http.send("POST", "/" + target + "/_search?search_type=dfs_query_then_fetch", body);
          if (r > 0) {
            nanos.add(System.nanoTime() - t);
          }
        }
      }
      Percentiles pc = new Percentiles(nanos.stream().mapToLong(Long::longValue).toArray());
      p("| %s | %.1f | %.1f |", target, pc.ms(50), pc.ms(95));
    }
    p("");
    p("- load at the end: %s", load());
  }

  private static Map<String, Organisation.Source> byName(List<Organisation.Source> sources) {
    Map<String, Organisation.Source> out = new TreeMap<>();
    sources.forEach(s -> out.put(s.name(), s));
    return out;
  }

  /** A BM25 candidate request of the engine's shape: each word on the ranked fields. */
  static String bm25(String query) {
    StringBuilder should = new StringBuilder();
    for (String w : query.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
      if (w.isEmpty()) {
        continue;
      }
      for (String f : List.of("body:1", "symbol:4", "path_text:1.5")) {
        String[] fb = f.split(":");
        should.append(should.length() == 0 ? "" : ",").append("{\"term\":{\"").append(fb[0])
            .append("\":{\"value\":\"").append(w).append("\",\"boost\":").append(fb[1])
            .append("}}}");
      }
    }
    return "{\"size\":50,\"_source\":[\"path\",\"chunk_id\"],\"query\":{\"bool\":{\"should\":["
        + should + "],\"minimum_should_match\":1,\"filter\":[{\"term\":{\"type\":\"chunk\"}}]}}}";
  }

  private static HybridIndexOptions local(Path root, Embedder model) {
    return HybridIndexOptions.builder(root).embedder(model).threads(1).build();
  }

  private static String require(Map<String, String> a, String key) {
    String v = a.get(key);
    if (v == null) {
      throw new IllegalArgumentException(key + " is required");
    }
    return v;
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).strip();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static void p(String format, Object... args) {
    System.out.println(String.format(Locale.ROOT, format, args));
    System.out.flush();
  }

  /** Plain JSON over HTTP for the figures the library does not give. */
  private static final class Cluster {
    private final URI url;
    private final HttpClient client = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    Cluster(URI url) {
      this.url = url;
    }

    JsonNode send(String method, String path, String body) throws IOException,
        InterruptedException {
      return send(method, path, null, body);
    }

    JsonNode send(String method, String path, String query, String body) throws IOException,
        InterruptedException {
      HttpRequest.Builder b = HttpRequest.newBuilder(url.resolve(query == null ? path
              : path + "?" + query))
          .header("Content-Type", "application/json")
          .timeout(java.time.Duration.ofMinutes(60))
          .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofString(body));
      String reply = client.send(b.build(), HttpResponse.BodyHandlers.ofString()).body();
      return reply.isEmpty() ? json.createObjectNode() : json.readTree(reply);
    }
  }
}
