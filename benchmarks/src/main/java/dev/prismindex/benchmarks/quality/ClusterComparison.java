package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.Evaluation.Latency;
import dev.prismindex.benchmarks.quality.QuerySets.NavQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.benchmarks.quality.Ranking.GrepBaseline;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.opensearch.OpenSearchOptions;
import dev.prismindex.opensearch.OpenSearchStore;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The OpenSearch side of the quality report ({@code --opensearch-url}): a corpus indexed into the
 * cluster with the local index's options, the same queries asked of it, and MRR@10 per mode
 * printed next to the local engine's, with the indexing time and the warm hybrid query latency of
 * both.
 *
 * @param cluster the cluster's URL
 * @param report the report the comparison is appended to
 */
record ClusterComparison(URI cluster, Fusion fusion, double auxiliaryWeight, StringBuilder report) {

  /** Indexes corpus {@code name} into the cluster and prints the side-by-side table. */
  void compare(String name, HybridIndexOptions options, List<SearchMode> modes,
      List<NlQuery> nl, List<NavQuery> nav, List<Outcome> localNl, List<Outcome> localNav,
      Map<String, String> texts, double localSeconds, Evaluation.Latency localLatency)
      throws IOException {
    OpenSearchOptions o = OpenSearchOptions.builder(cluster)
        .indexName("prism-quality-" + name.toLowerCase(Locale.ROOT)).replicas(0).build();
    OpenSearchStore store = OpenSearchStore.connect(options.root(), o);
    try (HybridIndex index = HybridIndex.open(options, store)) {
      store.drop();
      long t0 = System.nanoTime();
      index.refresh(RefreshOptions.INCREMENTAL);
      double seconds = (System.nanoTime() - t0) / 1e9;
      Evaluation eval = new Evaluation(name, index, modes, fusion, auxiliaryWeight,
          new GrepBaseline(new ArrayList<>(texts.keySet()), texts));
      List<Outcome> nlOut = eval.naturalLanguage(nl);
      List<Outcome> navOut = eval.navigation(nav);
      Evaluation.Latency latency = modes.contains(SearchMode.HYBRID)
          ? eval.latency(nl.stream().map(NlQuery::query).toList(), SearchMode.HYBRID) : null;
      line("#### OpenSearch backend, side by side (" + cluster + ")");
      line("");
      line("| set | mode | local MRR@10 | cluster MRR@10 | difference |");
      line("|---|---|---:|---:|---:|");
      for (SearchMode m : modes) {
        row("natural language", m, localNl, nlOut);
        row("navigation", m, localNav, navOut);
      }
      line("");
      line(String.format(Locale.ROOT, "Indexing: local %.0f s, cluster %.0f s (%s). Warm hybrid"
          + " query latency: local median %s, cluster median %s.", localSeconds, seconds,
          RetrievalQuality.loadAverage(), localLatency == null ? "-" : String.format(Locale.ROOT, "%.1f ms p95 %.1f ms",
          localLatency.medianMs(), localLatency.p95Ms()), latency == null ? "-"
          : String.format(Locale.ROOT, "%.1f ms p95 %.1f ms", latency.medianMs(), latency.p95Ms())));
      line("");
    }
  }

  private void row(String set, SearchMode m, List<Outcome> local, List<Outcome> cluster) {
    double a = Ranking.Metrics.of(Tables.ranks(local, m)).mrr();
    double b = Ranking.Metrics.of(Tables.ranks(cluster, m)).mrr();
    line(String.format(Locale.ROOT, "| %s | %s | %.3f | %.3f | %+.3f |", set, m.wireName(), a, b,
        b - a));
  }

  private void line(String s) {
    report.append(s).append('\n');
  }
}
