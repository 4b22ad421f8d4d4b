package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.Evaluation.Latency;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.benchmarks.quality.RetrievalQuality.CorpusResult;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.Workspace;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * {@code --workspace}: the corpora's indexes opened as one {@link Workspace} (one ranking, BM25
 * with the statistics of all of them), each corpus's natural-language queries asked of it (a hit
 * finds its target only in the target's repository), and MRR@10 per corpus and pooled printed
 * next to the per-repository figures, where the hybrid loss comes from (which repositories' hits
 * rank above the targets) and the warm hybrid latency of the workspace. Per-query
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
        displacement(ws);
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

  /**
   * Where the workspace's hybrid loss comes from: how often its first hit lies in the target's
   * repository, and, for each corpus, the repositories whose hits rank above a target that the
   * workspace ranks lower than the corpus alone (above the last of the ten when it lost it).
   */
  private void displacement(Workspace ws) throws IOException {
    SearchOpts opts = new SearchOpts(Ranking.DEPTH, SearchMode.HYBRID, null, fusion, false,
        auxiliaryWeight);
    int queries = 0;
    int firstInRepo = 0;
    double[] lost = new double[KINDS.size()];
    int[] lostQueries = new int[KINDS.size()];
    List<String> parts = new ArrayList<>();
    for (CorpusResult r : results) {
      Map<String, Integer> above = new TreeMap<>();
      for (Outcome o : r.nl()) {
        List<Hit> hits = ws.search(o.query(), opts);
        queries++;
        if (!hits.isEmpty() && r.name().equals(hits.get(0).repo())) {
          firstInRepo++;
        }
        int workspace = GroundTruth.rank(hits, o.target(), r.name());
        int own = o.modes().get(SearchMode.HYBRID).rank();
        if (own == 0 || (workspace != 0 && workspace <= own)) {
          continue;
        }
        int end = workspace == 0 ? hits.size() : workspace - 1;
        for (Hit h : hits.subList(0, end)) {
          if (!r.name().equals(h.repo())) {
            above.merge(h.repo(), 1, Integer::sum);
          }
        }
        int kind = kind(hits.subList(0, end), r.name(), o.target());
        lost[kind] += 1.0 / own - (workspace == 0 ? 0 : 1.0 / workspace);
        lostQueries[kind]++;
      }
      List<Map.Entry<String, Integer>> top = above.entrySet().stream()
          .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(3).toList();
      parts.add(r.name() + ": " + (top.isEmpty() ? "none" : String.join(", ", top.stream()
          .map(e -> e.getKey() + " " + e.getValue()).toList())));
    }
    line(String.format(Locale.ROOT, "Where the hybrid loss comes from: the workspace's first hit"
        + " lies in the target's repository for %.1f %% of the %d queries; hits of other"
        + " repositories ranked above a target the workspace ranks lower than its corpus alone"
        + " (above the tenth when it lost it), the three most frequent by corpus: %s.",
        100.0 * firstInRepo / Math.max(1, queries), queries, String.join("; ", parts)));
    line("");
    double gross = Arrays.stream(lost).sum();
    List<String> kinds = new ArrayList<>();
    for (int k = 0; k < KINDS.size(); k++) {
      kinds.add(String.format(Locale.ROOT, "%s %d queries, %.4f (%.0f %%)", KINDS.get(k),
          lostQueries[k], lost[k] / Math.max(1, queries), 100 * lost[k] / Math.max(1e-9, gross)));
    }
    line(String.format(Locale.ROOT, "What ranks above a target the workspace ranks lower (MRR@10"
        + " lost over the %d queries, %.4f in all, by the first that applies to the hits above"
        + " it): %s.", queries, gross / Math.max(1, queries), String.join("; ", kinds)));
    line("");
  }

  /** The kinds of {@link #kind}, in its order. */
  static final List<String> KINDS = List.of("a definition of the same name in another repository",
      "another repository's code in the target's language", "another language's code only",
      "the target's repository's own hits only");

  /**
   * What ranks above a target the workspace ranks lower ({@code above}: the hits before it, all
   * ten when it lost it), as an index of {@link #KINDS}: another repository's definition whose
   * name is the target's (case, underscores and a qualifier aside: toolz's {@code take} and
   * more-itertools' {@code take}), else another repository's hit in the target's language, else
   * another language's hit, else only hits of the target's own repository (the merge reordered
   * them: each signal's ranks interleave with the other repositories' candidates).
   */
  static int kind(List<Hit> above, String repo, Definition target) {
    boolean sameLanguage = false;
    boolean foreign = false;
    for (Hit h : above) {
      if (repo.equals(h.repo())) {
        continue;
      }
      foreign = true;
      if (h.symbol() != null && sameName(h.symbol(), target.name())) {
        return 0;
      }
      sameLanguage |= target.language().id().equalsIgnoreCase(h.language());
    }
    return sameLanguage ? 1 : foreign ? 2 : 3;
  }

  /** Whether two definition names are one, case, underscores and a qualifier aside. */
  static boolean sameName(String a, String b) {
    return simple(a).equals(simple(b));
  }

  private static String simple(String name) {
    String s = name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf(':')) + 1);
    return s.replace("_", "").toLowerCase(Locale.ROOT);
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
