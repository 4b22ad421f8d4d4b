package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.Trees;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.Workspace;
import dev.prismindex.engine.internal.query.LearnedMerge;
import dev.prismindex.engine.internal.query.LearnedMerge.Candidate;
import dev.prismindex.repository.SearchMode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Trains the workspace's learned merge ({@link LearnedMerge}) on a workspace of training trees
 * ({@code scripts/corpora/training.txt}, checked against the quality benchmark's corpora first):
 * each tree built as the quality benchmark builds a corpus (a seeded sample of natural-language
 * queries, their docs blanked in the indexed copy, indexed with the static code model), the trees
 * opened as one {@link Workspace}, each query's merge probed ({@link Workspace#mergeProbe}: the
 * default answer and every candidate with its features, labelled 1 when it finds the target in
 * the target's repository), then a linear model fitted by the listwise softmax of {@link
 * RankerFit} on standardised features. Validation is two-fold by tree ({@code --names} lists the
 * first fold's trees, then the second's): a model fitted on one fold's queries is evaluated on the
 * other's, MRR@10 next to the default merge and the oracle merge (the target's repository's own
 * list first). The model fitted on all queries is written as the weights resource.
 *
 * <p>{@code --training FILE --quality FILE --trees DIR --work DIR --names A,B,... --out FILE
 * [--nl N] [--seed S] [--epochs N] [--l2 X]}
 */
public final class WorkspaceMergeTraining {

  private WorkspaceMergeTraining() {}

  /** One query's merge: its candidates, labels, and the default and oracle ranks (0: none). */
  record Query(String tree, String group, int fold, List<Candidate> candidates, boolean[] label,
      int size, int defaultRank, int oracleRank) {}

  public static void main(String[] args) throws IOException {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      o.put(args[i].substring(2), args[i + 1]);
    }
    List<TreeList> list = TreeList.readTraining(Path.of(o.get("training")));
    List<Contamination.Finding> found = Contamination.check(list,
        TreeList.readQuality(Path.of(o.get("quality"))));
    if (!found.isEmpty()) {
      found.forEach(f -> System.err.println("merge training: refused: " + f));
      System.exit(3);
    }
    Path trees = Path.of(o.get("trees"));
    Path work = Path.of(o.get("work"));
    int nl = Integer.parseInt(o.getOrDefault("nl", "100"));
    long seed = Long.parseLong(o.getOrDefault("seed", "42"));
    int epochs = Integer.parseInt(o.getOrDefault("epochs", "300"));
    double l2 = Double.parseDouble(o.getOrDefault("l2", "0.001"));
    List<String> names = List.of(o.get("names").split(","));
    Map<String, TreeList> byName = new HashMap<>();
    list.forEach(t -> byName.put(t.name(), t));
    Map<String, HybridIndexOptions> repos = new LinkedHashMap<>();
    Map<String, List<NlQuery>> queries = new LinkedHashMap<>();
    Map<String, String> groups = new HashMap<>();
    for (String name : names) {
      TreeList t = byName.get(name);
      if (t == null) {
        throw new IllegalArgumentException("not a training tree: " + name);
      }
      Language language = Language.of(t.language());
      groups.put(name, RankerTraining.group(language));
      Path pristine = trees.resolve(name);
      Path root = work.resolve(name);
      boolean fresh = !Files.isDirectory(root.resolve(".prism-index"));
      if (fresh) {
        Trees.delete(root);
        CorpusFiles.copyTree(pristine, root);
      }
      List<String> sources = CorpusFiles.files(root).stream().filter(language::isSource)
          .filter(TrainingPairs::kept).toList();
      List<Definition> defs = DefinitionExtractor.definitions(pristine, sources, language);
      List<NlQuery> q = QuerySets.naturalLanguage(defs, RetrievalQuality.texts(pristine, sources),
          nl, seed).queries();
      HybridIndexOptions options = options(root);
      if (fresh) {
        RetrievalQuality.blankAnswerDocs(root, q);
        long t0 = System.nanoTime();
        try (HybridIndex index = HybridIndex.open(options)) {
          index.refresh(RefreshOptions.FULL);
        }
        System.err.printf(Locale.ROOT, "merge training: %s indexed (%.0f s)%n", name,
            (System.nanoTime() - t0) / 1e9);
      }
      repos.put(name, options);
      queries.put(name, q);
    }
    List<Query> all = new ArrayList<>();
    SearchOpts opts = new SearchOpts(Ranking.DEPTH, SearchMode.HYBRID, null, Fusion.rrf(), false,
        SearchOpts.DEFAULT_AUXILIARY_WEIGHT);
    try (Workspace ws = Workspace.open(repos)) {
      for (int k = 0; k < names.size(); k++) {
        String name = names.get(k);
        int fold = k < names.size() / 2 ? 0 : 1;
        long t0 = System.nanoTime();
        for (NlQuery q : queries.get(name)) {
          LearnedMerge.Probe p = ws.mergeProbe(q.query(), opts);
          if (p == null) {
            continue;
          }
          boolean[] label = new boolean[p.candidates().size()];
          List<Hit> own = new ArrayList<>();
          for (int i = 0; i < label.length; i++) {
            Candidate c = p.candidates().get(i);
            label[i] = c.repo().equals(name)
                && GroundTruth.finds(c.hit().path(), c.hit().line(), q.target());
            if (c.repo().equals(name)) {
              own.add(c.hit().withRepo(name));
            }
          }
          all.add(new Query(name, groups.get(name), fold, p.candidates(), label, p.size(),
              GroundTruth.rank(p.answer(), q.target(), name), GroundTruth.rank(own, q.target())));
        }
        System.err.printf(Locale.ROOT, "merge training: %s %d queries asked (%.0f s)%n", name,
            queries.get(name).size(), (System.nanoTime() - t0) / 1e9);
      }
    }
    int dim = LearnedMerge.FEATURES.size();
    double[][] weights = new double[2][];
    for (int fold = 0; fold < 2; fold++) {
      int f = fold;
      weights[fold] = fit(all.stream().filter(q -> q.fold() != f).toList(), dim, epochs, l2);
    }
    System.out.println("| tree | language | fold | queries | default MRR@10 | learned MRR@10"
        + " (held out) | oracle MRR@10 |");
    System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    Map<String, double[]> byGroup = new TreeMap<>();
    for (String name : names) {
      double[] s = new double[4];
      for (Query q : all) {
        if (q.tree().equals(name)) {
          add(s, q, weights[1 - q.fold()]);
        }
      }
      double[] g = byGroup.computeIfAbsent(groups.get(name), k -> new double[4]);
      for (int i = 0; i < 4; i++) {
        g[i] += s[i];
      }
      System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | %.4f | %.4f | %.4f |%n", name,
          groups.get(name), names.indexOf(name) < names.size() / 2 ? 0 : 1, (int) s[0],
          s[1] / s[0], s[2] / s[0], s[3] / s[0]);
    }
    double[] p = new double[4];
    byGroup.forEach((g, s) -> {
      for (int i = 0; i < 4; i++) {
        p[i] += s[i];
      }
      System.out.printf(Locale.ROOT, "| **%s** | | | %d | %.4f | %.4f | %.4f |%n", g, (int) s[0],
          s[1] / s[0], s[2] / s[0], s[3] / s[0]);
    });
    System.out.printf(Locale.ROOT, "| **pooled** | | | %d | %.4f | %.4f | %.4f |%n", (int) p[0],
        p[1] / p[0], p[2] / p[0], p[3] / p[0]);
    double[] w = fit(all, dim, epochs, l2);
    double[] s = new double[4];
    all.forEach(q -> add(s, q, w));
    System.out.printf(Locale.ROOT, "%nfitted on all %d queries (seed %d, %d epochs, L2 %s):"
        + " learned MRR@10 %.4f on them (default %.4f, oracle %.4f)%n", all.size(), seed, epochs,
        l2, s[2] / s[0], s[1] / s[0], s[3] / s[0]);
    try (Writer out = new BufferedWriter(Files.newBufferedWriter(Path.of(o.get("out")),
        StandardCharsets.UTF_8))) {
      out.write("# The workspace's learned merge (LearnedMerge), fitted by"
          + " benchmarks' WorkspaceMergeTraining on training trees " + String.join(",", names)
          + " (" + all.size() + " queries, nl " + nl + ", seed " + seed + ", " + epochs
          + " epochs, L2 " + l2 + ")\n");
      for (int j = 0; j < dim; j++) {
        out.write(LearnedMerge.FEATURES.get(j) + "\t" + String.format(Locale.ROOT, "%.6g", w[j])
            + "\n");
      }
    }
  }

  private static HybridIndexOptions options(Path root) {
    return HybridIndexOptions.builder(root).embeddingThreads(1)
        .embeddingCommitInterval(Duration.ofDays(1))
        .embedder(EmbedderProvider.find("prism-code-v1-t1").orElseThrow().create()).build();
  }

  /** Adds a query's count and reciprocal ranks (default, learned by {@code w}, oracle). */
  private static void add(double[] s, Query q, double[] w) {
    s[0]++;
    s[1] += q.defaultRank() == 0 ? 0 : 1.0 / q.defaultRank();
    int r = learnedRank(q, w);
    s[2] += r == 0 ? 0 : 1.0 / r;
    s[3] += q.oracleRank() == 0 ? 0 : 1.0 / q.oracleRank();
  }

  /**
   * The target's place in the learned merge of {@code q} by {@code w} (0: not in it): the target
   * is the own hit of rank {@code k} of its repository, and takes that repository's {@code k}-th
   * place.
   */
  static int learnedRank(Query q, double[] w) {
    int k = 0;
    for (int i = 0; i < q.label().length; i++) {
      if (q.label()[i]) {
        k = q.candidates().get(i).ownRank();
        break;
      }
    }
    if (k == 0) {
      return 0;
    }
    int seen = 0;
    List<Candidate> places = LearnedMerge.places(q.candidates(), w, q.size());
    for (int i = 0; i < places.size(); i++) {
      if (places.get(i).repo().equals(q.tree()) && ++seen == k) {
        return i + 1;
      }
    }
    return 0;
  }

  /**
   * Weights on the raw features: the listwise fit ({@link RankerFit#fit}) on standardised ones,
   * divided back by each feature's spread (a shift is the same for every candidate of a query).
   */
  static double[] fit(List<Query> queries, int dim, int epochs, double l2) {
    double[] mean = new double[dim];
    double[] sq = new double[dim];
    long n = 0;
    for (Query q : queries) {
      for (Candidate c : q.candidates()) {
        for (int j = 0; j < dim; j++) {
          mean[j] += c.features()[j];
          sq[j] += c.features()[j] * c.features()[j];
        }
        n++;
      }
    }
    double[] sd = new double[dim];
    for (int j = 0; j < dim; j++) {
      mean[j] /= Math.max(1, n);
      sd[j] = Math.sqrt(Math.max(0, sq[j] / Math.max(1, n) - mean[j] * mean[j]));
      if (sd[j] < 1e-9) {
        sd[j] = 1;
      }
    }
    List<RankerFit.Query> fitted = new ArrayList<>();
    for (Query q : queries) {
      double[][] x = new double[q.candidates().size()][];
      String[] def = new String[x.length];
      for (int i = 0; i < x.length; i++) {
        double[] f = q.candidates().get(i).features();
        x[i] = new double[dim];
        for (int j = 0; j < dim; j++) {
          x[i][j] = (f[j] - mean[j]) / sd[j];
        }
        def[i] = q.candidates().get(i).repo() + "/" + q.candidates().get(i).ownRank();
      }
      fitted.add(new RankerFit.Query(q.tree(), q.group(), "nl", x, q.label(), def));
    }
    double[] w = RankerFit.fit(fitted, dim, epochs, l2);
    double[] raw = Arrays.copyOf(w, dim);
    for (int j = 0; j < dim; j++) {
      raw[j] = w[j] / sd[j];
    }
    return raw;
  }
}
