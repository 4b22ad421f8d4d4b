package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.Trees;
import dev.prismindex.benchmarks.quality.Evaluation.Latency;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.benchmarks.quality.RetrievalQuality.CorpusResult;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code --combined}: the haystack control of the workspace run. ONE repository index built over
 * a directory ({@code WORK/combined}) holding each corpus's indexed copy (its answers' docs
 * blanked) as a subdirectory named after the corpus, asked the queries the workspace run asks
 * (each corpus's natural-language queries, those the rule across corpora drops left out), a
 * target found only at its path under its corpus's subdirectory. One set of collection
 * statistics, one ranking, no merge: against each corpus alone it measures what the larger
 * haystack costs; against the workspace, what the merge costs on top. Per-query ranks go to
 * {@code WORK/combined-details.tsv} (answers' and first hits' paths under their subdirectory).
 * With one corpus it measures what the subdirectory alone costs (nothing, when no ranking signal
 * reads the path's first directory). With {@code reuse}, the combined index is kept only when it
 * holds the same corpora ({@code WORK/combined.corpora}).
 *
 * @param reuse keep an existing combined index (as {@code --reuse} keeps each corpus's)
 */
record CombinedQuality(List<CorpusResult> results, Path work, boolean semantic,
    @Nullable String embedder, Fusion fusion, double auxiliaryWeight, boolean reuse,
    StringBuilder report) {

  /** The directory below the work directory that holds the combined tree and its index. */
  static final String DIR = "combined";

  /** Builds (or reuses) the combined index, asks the queries and appends the section. */
  void run() throws IOException {
    if (results.isEmpty()) {
      return;
    }
    boolean hybrid = results.stream().allMatch(r -> r.latency() != null);
    List<SearchMode> modes = hybrid
        ? List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)
        : List.of(SearchMode.LEXICAL);
    Path root = work.resolve(DIR);
    // The corpora the combined tree holds, beside it (inside, the engine would index it).
    Path marker = work.resolve(DIR + ".corpora");
    String names = String.join("\n", results.stream().map(CorpusResult::name).toList());
    boolean fresh = !(reuse && Files.isDirectory(root.resolve(".prism-index"))
        && Files.isRegularFile(marker) && Files.readString(marker).equals(names));
    if (fresh) {
      Trees.delete(root);
      Files.deleteIfExists(marker);
      for (CorpusResult r : results) {
        int n = CorpusFiles.copyTree(work.resolve(r.name()), root.resolve(r.name()));
        RetrievalQuality.log("combined: " + n + " files of " + r.name() + " copied");
      }
      Files.writeString(marker, names);
    } else {
      RetrievalQuality.log("combined: reusing " + root + " and its index");
    }
    Map<String, Set<Outcome>> dropped = WorkspaceQuality.droppedAcross(results);
    HybridIndexOptions.Builder builder = HybridIndexOptions.builder(root).semantic(semantic)
        .embeddingThreads(1).embeddingCommitInterval(Duration.ofDays(1));
    if (embedder != null && semantic) {
      builder.embedder(EmbedderProvider.find(embedder).orElseThrow().create());
    }
    List<Outcome> alone = new ArrayList<>();
    List<Outcome> together = new ArrayList<>();
    List<String> queries = new ArrayList<>();
    Map<String, List<Outcome>> aloneByLanguage = new LinkedHashMap<>();
    Map<String, List<Outcome>> togetherByLanguage = new LinkedHashMap<>();
    try (HybridIndex index = HybridIndex.open(builder.build())) {
      long t0 = System.nanoTime();
      index.refresh(fresh ? RefreshOptions.FULL : RefreshOptions.INCREMENTAL);
      double seconds = (System.nanoTime() - t0) / 1e9;
      EngineStatus status = index.engineStatus();
      line("## Combined: all corpora in one repository index (the haystack control)");
      line("");
      line(String.format(Locale.ROOT, "The queries the workspace run asks (above; %d dropped by"
          + " the rule across corpora) asked of ONE repository index over a tree holding every"
          + " corpus's indexed copy as a subdirectory named after it: one set of collection"
          + " statistics, one ranking, no merge; a hit finds its target only at the target's"
          + " path under its corpus's subdirectory. Index: %d chunks (%d embedded), %.1f MB,"
          + " built in %.0f s%s (load average after: %s). MRR@10:", dropped.values().stream()
          .mapToInt(Set::size).sum(), status.chunks(), status.chunksEmbedded(),
          status.sizeOnDiskBytes() / 1e6, seconds, fresh ? " from empty" : " (reused)",
          RetrievalQuality.loadAverage()));
      line("");
      line(Tables.comparisonHeader("combined", modes));
      for (CorpusResult r : results) {
        Set<Outcome> d = dropped.get(r.name());
        List<Outcome> kept = r.nl().stream().filter(o -> !d.contains(o)).toList();
        List<NlQuery> nl = kept.stream()
            .map(o -> new NlQuery(o.query(), under(r.name(), o.target()))).toList();
        List<Outcome> out = new Evaluation(r.name(), index, modes, fusion, auxiliaryWeight, null)
            .naturalLanguage(nl);
        nl.forEach(q -> queries.add(q.query()));
        alone.addAll(kept);
        together.addAll(out);
        aloneByLanguage.computeIfAbsent(r.language().id(), k -> new ArrayList<>()).addAll(kept);
        togetherByLanguage.computeIfAbsent(r.language().id(), k -> new ArrayList<>())
            .addAll(out);
        line(Tables.comparisonRow(r.name(), kept, out, modes));
        RetrievalQuality.log("combined: " + r.name() + " asked");
      }
      line(Tables.comparisonRow("**pooled**", alone, together, modes));
      for (String language : aloneByLanguage.keySet()) {
        line(Tables.comparisonRow(language, aloneByLanguage.get(language),
            togetherByLanguage.get(language), modes));
      }
      line("");
      SearchMode last = modes.get(modes.size() - 1);
      line(String.format(Locale.ROOT, "%s R@10 alone / combined: %.3f / %.3f.",
          Tables.name(last), Ranking.Metrics.of(Tables.ranks(alone, last)).r10(),
          Ranking.Metrics.of(Tables.ranks(together, last)).r10()));
      if (hybrid) {
        Latency latency = new Evaluation("combined", index, modes, fusion, auxiliaryWeight, null)
            .latency(queries, SearchMode.HYBRID);
        line(String.format(Locale.ROOT, "Warm hybrid query latency of the combined index over"
            + " the %d queries: median %.1f ms, p95 %.1f ms (load average after: %s).",
            queries.size(), latency.medianMs(), latency.p95Ms(), RetrievalQuality.loadAverage()));
      }
      line("");
    }
    Path tsv = work.resolve(DIR + "-details.tsv");
    Details.write(tsv, together);
    RetrievalQuality.log("combined: per-query ranks in " + tsv);
  }

  /**
   * {@code target} as the combined tree holds it: its path under the subdirectory {@code corpus}
   * (lines unchanged: the file is the corpus's indexed copy).
   */
  static Definition under(String corpus, Definition target) {
    return new Definition(corpus + "/" + target.path(), target.language(), target.kind(),
        target.name(), target.nameLine(), target.startLine(), target.endLine(),
        target.hasBody(), target.doc(), target.docSpans());
  }

  private void line(String s) {
    report.append(s).append('\n');
  }
}
