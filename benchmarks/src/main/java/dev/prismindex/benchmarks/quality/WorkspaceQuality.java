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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
    List<CorpusText> texts = texts(results);
    Map<String, Set<Outcome>> dropped = droppedAcross(results, texts);
    int droppedCount = dropped.values().stream().mapToInt(Set::size).sum();
    int total = results.stream().mapToInt(r -> r.nl().size()).sum();
    List<Outcome> alone = new ArrayList<>();
    List<Outcome> together = new ArrayList<>();
    List<Outcome> aloneAll = new ArrayList<>();
    List<Outcome> togetherAll = new ArrayList<>();
    List<Outcome> droppedOut = new ArrayList<>();
    List<String> before = new ArrayList<>();
    line("## Workspace: all corpora searched as one");
    line("");
    line("The natural-language queries of every corpus asked of one `Workspace` of all " + results
        .size() + " corpora (each keeps its index; one ranking, BM25 with the statistics of all"
        + " of them; a hit finds its target only in the target's repository), against each"
        + " corpus searched alone (above). The single-corpus rules apply across the workspace: a"
        + " query whose sentence is the first sentence of another corpus's documented function,"
        + " or stands word for word in another corpus's source, is asked of neither (" + String
        .format(Locale.ROOT, "%d of the %d queries%s", droppedCount, total, droppedCount == 0
        ? "" : ": " + String.join(", ", dropped.entrySet().stream()
        .filter(e -> !e.getValue().isEmpty())
        .map(e -> e.getKey() + " " + e.getValue().size()).toList())) + "). MRR@10:");
    line("");
    line(Tables.comparisonHeader("workspace", modes));
    SearchMode last = modes.get(modes.size() - 1);
    try (Workspace ws = Workspace.open(repos)) {
      List<String> queries = new ArrayList<>();
      for (CorpusResult r : results) {
        Evaluation eval = new Evaluation(r.name(), ws, modes, fusion, auxiliaryWeight, null,
            r.name());
        List<NlQuery> nl = r.nl().stream().map(o -> new NlQuery(o.query(), o.target()))
            .toList();
        List<Outcome> out = eval.naturalLanguage(nl);
        Set<Outcome> d = dropped.get(r.name());
        List<Outcome> keptAlone = new ArrayList<>();
        List<Outcome> keptTogether = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
          if (d.contains(r.nl().get(i))) {
            droppedOut.add(out.get(i));
          } else {
            keptAlone.add(r.nl().get(i));
            keptTogether.add(out.get(i));
            queries.add(nl.get(i).query());
          }
        }
        alone.addAll(keptAlone);
        together.addAll(keptTogether);
        aloneAll.addAll(r.nl());
        togetherAll.addAll(out);
        line(Tables.comparisonRow(r.name(), keptAlone, keptTogether, modes));
        before.add(String.format(Locale.ROOT, "%s %d %.3f / %.3f", r.name(), out.size(),
            mrr(r.nl(), last), mrr(out, last)));
        RetrievalQuality.log("workspace: " + r.name() + " asked");
      }
      line(Tables.comparisonRow("**pooled**", alone, together, modes));
      line("");
      line(String.format(Locale.ROOT, "Before that rule (all %d queries), %s MRR@10 alone /"
          + " workspace: pooled %.3f / %.3f (%+.3f); %s.", total, Tables.name(last),
          mrr(aloneAll, last), mrr(togetherAll, last), mrr(togetherAll, last)
          - mrr(aloneAll, last), String.join("; ", before)));
      line("");
      if (hybrid) {
        displacement(ws, dropped, texts);
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
    Details.write(work.resolve("workspace-dropped-details.tsv"), droppedOut);
    RetrievalQuality.log("workspace: per-query ranks in " + tsv + " (the queries the rule drops:"
        + " workspace-dropped-details.tsv)");
  }

  /** Each corpus's text for the rules across corpora. */
  static List<CorpusText> texts(List<CorpusResult> results) throws IOException {
    List<CorpusText> texts = new ArrayList<>();
    for (CorpusResult r : results) {
      texts.add(new CorpusText(r.name(), r.defs(),
          RetrievalQuality.texts(r.pristine(), r.sources()), r.pristine()));
    }
    return texts;
  }

  /** {@link #droppedAcross(List, List)} with the corpora's texts read. */
  static Map<String, Set<Outcome>> droppedAcross(List<CorpusResult> results) throws IOException {
    return droppedAcross(results, texts(results));
  }

  /**
   * By corpus, its natural-language outcomes (alone) whose queries the rule across corpora
   * ({@link #ambiguousAcross}) drops: asked of neither the workspace nor the combined index.
   */
  static Map<String, Set<Outcome>> droppedAcross(List<CorpusResult> results,
      List<CorpusText> texts) {
    Map<String, Set<Outcome>> dropped = new LinkedHashMap<>();
    for (CorpusResult r : results) {
      Set<NlQuery> across = ambiguousAcross(r.name(), r.nl().stream()
          .map(o -> new NlQuery(o.query(), o.target())).toList(), texts);
      Set<Outcome> d = new HashSet<>();
      for (Outcome o : r.nl()) {
        if (across.contains(new NlQuery(o.query(), o.target()))) {
          d.add(o);
        }
      }
      dropped.put(r.name(), d);
    }
    return dropped;
  }

  private static double mrr(List<Outcome> outcomes, SearchMode mode) {
    return Ranking.Metrics.of(Tables.ranks(outcomes, mode)).mrr();
  }

  /**
   * A corpus's text for the rules across corpora.
   *
   * @param name the corpus (its repository in the workspace)
   * @param defs its definitions
   * @param sources its source files (relative path to text) before any doc is blanked
   * @param pristine its tree before any doc is blanked
   */
  record CorpusText(String name, List<Definition> defs, Map<String, String> sources,
      Path pristine) {

    /** The text of {@code path} before any doc was blanked, or null when it cannot be read. */
    @Nullable String text(String path) {
      String s = sources.get(path);
      if (s != null) {
        return s;
      }
      try {
        return Files.readString(pristine.resolve(path), StandardCharsets.UTF_8);
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
  }

  /**
   * The queries of {@code corpus} that the single-corpus rules ({@link QuerySets#naturalLanguage})
   * would not draw if the other corpora of {@code all} were part of it: whose sentence is the
   * first sentence of another corpus's documented function (case-insensitively, library or not)
   * or stands word for word in another corpus's source ({@link Restatements}). Their target's own
   * corpus was checked when they were drawn.
   */
  static Set<NlQuery> ambiguousAcross(String corpus, List<NlQuery> queries,
      List<CorpusText> all) {
    Set<String> sentences = new HashSet<>();
    Map<String, String> sources = new LinkedHashMap<>();
    for (CorpusText c : all) {
      if (c.name().equals(corpus)) {
        continue;
      }
      for (Definition d : c.defs()) {
        if (d.kind() == Definition.Kind.FUNCTION && d.doc() != null) {
          String s = DocSentence.first(d.language(), d.doc(), d.name());
          if (s != null) {
            sentences.add(s.toLowerCase(Locale.ROOT));
          }
        }
      }
      // Another corpus's paths, made unlike any of this corpus's: no target lies in them.
      c.sources().forEach((path, text) -> sources.put("//" + c.name() + "/" + path, text));
    }
    Set<NlQuery> out = new LinkedHashSet<>();
    for (NlQuery q : queries) {
      if (sentences.contains(q.query().toLowerCase(Locale.ROOT))) {
        out.add(q);
      }
    }
    out.addAll(Restatements.ambiguous(queries, sources));
    return out;
  }

  /**
   * Where the workspace's hybrid loss comes from, over all the queries (those the rule across
   * corpora drops included): how often its first hit lies in the target's repository; for each
   * corpus, the repositories whose hits rank above a target that the workspace ranks lower than
   * the corpus alone (above the last of the ten when it lost it); what those hits are ({@link
   * #kind}); and what the workspace's first hit is for such a target ({@link #firstHit}), apart
   * for the queries the rule drops and keeps.
   */
  private void displacement(Workspace ws, Map<String, Set<Outcome>> dropped,
      List<CorpusText> texts) throws IOException {
    SearchOpts opts = new SearchOpts(Ranking.DEPTH, SearchMode.HYBRID, null, fusion, false,
        auxiliaryWeight);
    Map<String, CorpusText> byName = new LinkedHashMap<>();
    texts.forEach(t -> byName.put(t.name(), t));
    int queries = 0;
    int firstInRepo = 0;
    double[] lost = new double[KINDS.size()];
    int[] lostQueries = new int[KINDS.size()];
    double[][] firstLost = new double[2][FIRST_HITS.size()];
    int[][] firstQueries = new int[2][FIRST_HITS.size()];
    double gained = 0;
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
        if (workspace != 0 && (own == 0 || workspace < own)) {
          gained += 1.0 / workspace - (own == 0 ? 0 : 1.0 / own);
        }
        if (own == 0 || (workspace != 0 && workspace <= own)) {
          continue;
        }
        int end = workspace == 0 ? hits.size() : workspace - 1;
        for (Hit h : hits.subList(0, end)) {
          if (!r.name().equals(h.repo())) {
            above.merge(h.repo(), 1, Integer::sum);
          }
        }
        double loss = 1.0 / own - (workspace == 0 ? 0 : 1.0 / workspace);
        int kind = kind(hits.subList(0, end), r.name(), o.target());
        lost[kind] += loss;
        lostQueries[kind]++;
        if (hits.isEmpty()) {
          continue;
        }
        Hit first = hits.get(0);
        CorpusText other = byName.get(first.repo());
        int f = firstHit(first, r.name(), o.query(), o.target(),
            other == null ? List.of() : other.defs(), other == null ? null : other.text(first
            .path()));
        int set = dropped.get(r.name()).contains(o) ? 1 : 0;
        firstLost[set][f] += loss;
        firstQueries[set][f]++;
      }
      List<Map.Entry<String, Integer>> top = above.entrySet().stream()
          .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(3).toList();
      parts.add(r.name() + ": " + (top.isEmpty() ? "none" : String.join(", ", top.stream()
          .map(e -> e.getKey() + " " + e.getValue()).toList())));
    }
    line(String.format(Locale.ROOT, "Where the hybrid loss comes from (all %2$d queries, those"
        + " the rule across corpora drops included): the workspace's first hit"
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
        + " lost over the %d queries, %.4f in all, gained on others %.4f, by the first that"
        + " applies to the hits above it): %s.", queries, gross / Math.max(1, queries),
        gained / Math.max(1, queries), String.join("; ", kinds)));
    line("");
    List<String> firsts = new ArrayList<>();
    for (int set = 0; set < 2; set++) {
      for (int k = 0; k < FIRST_HITS.size(); k++) {
        firsts.add(String.format(Locale.ROOT, "%s, %s: %d queries, %.4f (%.0f %%)",
            set == 0 ? "kept" : "dropped", FIRST_HITS.get(k), firstQueries[set][k],
            firstLost[set][k] / Math.max(1, queries),
            100 * firstLost[set][k] / Math.max(1e-9, gross)));
      }
    }
    line(String.format(Locale.ROOT, "The workspace's first hit for a target it ranks lower (MRR@10"
        + " lost over the %d queries, by whether the rule across corpora keeps or drops the"
        + " query): %s.", queries, String.join("; ", firsts)));
    line("");
  }

  /** The kinds of {@link #firstHit}, in its order. */
  static final List<String> FIRST_HITS = List.of("the target's repository's own hit",
      "another repository's definition restating the query",
      "another repository's definition of the same name", "another repository's other hit");

  /**
   * What the workspace's first hit {@code first} is for a query it ranks lower than the corpus
   * alone, as an index of {@link #FIRST_HITS}: a hit of the target's own repository {@code repo};
   * else another repository's hit that states the query word for word (in its lines, or in the
   * doc comment of a definition of {@code defs}, that repository's, that the hit overlaps: the
   * ambiguity the single-corpus rules exclude); else one whose symbol is the target's name
   * ({@link #sameName}); else any other. {@code text} is the hit's file as it was before any doc
   * was blanked (null when unknown).
   */
  static int firstHit(Hit first, String repo, String query, Definition target,
      List<Definition> defs, @Nullable String text) {
    if (repo.equals(first.repo())) {
      return 0;
    }
    int from = first.line();
    int to = Math.max(first.line(), first.endLine());
    for (Definition d : defs) {
      if (d.path().equals(first.path()) && d.startLine() <= to && d.endLine() >= from
          && d.doc() != null && Restatements.standsIn(query, d.doc())) {
        return 1;
      }
    }
    if (text != null) {
      List<String> lines = text.lines().toList();
      String chunk = String.join("\n", lines.subList(Math.min(lines.size(), from - 1),
          Math.min(lines.size(), to)));
      if (Restatements.standsIn(query, chunk)) {
        return 1;
      }
    }
    return first.symbol() != null && sameName(first.symbol(), target.name()) ? 2 : 3;
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

  private void line(String s) {
    report.append(s).append('\n');
  }
}
