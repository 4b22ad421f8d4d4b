package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.Evaluation.Latency;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.benchmarks.quality.RetrievalQuality.CorpusResult;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.Workspace;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code --workspace}: the corpora's indexes opened as one {@link Workspace} (one ranking, BM25
 * with the statistics of all of them), each corpus's natural-language queries asked of it (a hit
 * finds its target only in the target's repository), and MRR@10 per corpus and pooled printed
 * next to the per-repository figures, with the warm hybrid latency of the workspace. Per-query
 * ranks go to {@code workspace-details.tsv} in the work directory.
 *
 * @param results what each corpus gave alone (fewer than two corpora: nothing is printed)
 * @param embedder the embedder's provider id, or null for the engine's default
 * @param report the report the section is appended to
 */
record WorkspaceQuality(List<CorpusResult> results, Path work, boolean semantic,
    @Nullable String embedder, Fusion fusion, double auxiliaryWeight, StringBuilder report) {

  /** Asks the queries of the workspace and appends the section. */
  void run() throws IOException {
    if (results.size() < 2) {
      return;
    }
    boolean hybrid = results.stream().allMatch(r -> r.latency() != null);
    List<SearchMode> modes = hybrid
        ? List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)
        : List.of(SearchMode.LEXICAL);
    Map<String, HybridIndexOptions> repos = new LinkedHashMap<>();
    for (CorpusResult r : results) {
      HybridIndexOptions.Builder builder = HybridIndexOptions.builder(work.resolve(r.name()))
          .semantic(semantic);
      if (embedder != null && semantic) {
        builder.embedder(EmbedderProvider.find(embedder).orElseThrow().create());
      }
      repos.put(r.name(), builder.build());
    }
    List<Outcome> alone = new ArrayList<>();
    List<Outcome> together = new ArrayList<>();
    line("## Workspace: all corpora searched as one");
    line("");
    line("The natural-language queries of every corpus asked of one `Workspace` of all " + results
        .size() + " corpora (each keeps its index; one ranking, BM25 with the statistics of all"
        + " of them; a hit finds its target only in the target's repository), against each"
        + " corpus searched alone (above). MRR@10:");
    line("");
    line("| corpus | queries | " + String.join(" | ", modes.stream().map(m -> Tables.name(m)
        + " alone | " + Tables.name(m) + " workspace | difference").toList()) + " |");
    line("| --- | ---: |" + " ---: | ---: | ---: |".repeat(modes.size()));
    try (Workspace ws = Workspace.open(repos)) {
      List<String> queries = new ArrayList<>();
      for (CorpusResult r : results) {
        Evaluation eval = new Evaluation(r.name(), ws, modes, fusion, auxiliaryWeight, null,
            r.name());
        List<NlQuery> nl = r.nl().stream().map(o -> new NlQuery(o.query(), o.target()))
            .toList();
        List<Outcome> out = eval.naturalLanguage(nl);
        alone.addAll(r.nl());
        together.addAll(out);
        nl.forEach(q -> queries.add(q.query()));
        row(r.name(), r.nl(), out, modes);
        RetrievalQuality.log("workspace: " + r.name() + " asked");
      }
      row("**pooled**", alone, together, modes);
      line("");
      if (hybrid) {
        Latency latency = new Evaluation("workspace", ws, modes, fusion, auxiliaryWeight, null,
            null).latency(queries, SearchMode.HYBRID);
        line(String.format(Locale.ROOT, "Warm hybrid query latency of the workspace over the %d"
            + " queries: median %.1f ms, p95 %.1f ms (load average after: %s).", queries.size(),
            latency.medianMs(), latency.p95Ms(), RetrievalQuality.loadAverage()));
        line("");
      }
    }
    Path tsv = work.resolve("workspace-details.tsv");
    Details.write(tsv, together);
    RetrievalQuality.log("workspace: per-query ranks in " + tsv);
  }

  private void row(String name, List<Outcome> alone, List<Outcome> together,
      List<SearchMode> modes) {
    StringBuilder row = new StringBuilder("| " + name + " | " + alone.size() + " |");
    for (SearchMode m : modes) {
      double a = Ranking.Metrics.of(Tables.ranks(alone, m)).mrr();
      double b = Ranking.Metrics.of(Tables.ranks(together, m)).mrr();
      row.append(String.format(Locale.ROOT, " %.3f | %.3f | %+.3f |", a, b, b - a));
    }
    line(row.toString());
  }

  private void line(String s) {
    report.append(s).append('\n');
  }
}
