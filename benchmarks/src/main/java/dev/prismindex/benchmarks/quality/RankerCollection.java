package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.Trees;
import dev.prismindex.benchmarks.quality.QuerySets.NavQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.testing.EngineProbes;
import dev.prismindex.engine.testing.EngineProbes.RankerCandidate;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * {@link RankerTraining}'s {@code collect} step: for each training tree of {@code
 * scripts/corpora/training.txt} (checked against the quality benchmark's corpora first: a
 * contaminated list stops the run), built exactly as the quality benchmark builds a corpus: its
 * definitions of the tree's main language, a seeded sample of natural-language queries (a
 * documented library function's first doc sentence, that doc blanked in the indexed copy, or kept
 * for a seeded share of them, {@code --documented SHARE}: the ranker then also learns from
 * functions whose docs say what the sentence says, as in code that has its docs; and for another
 * seeded share, {@code --rest-of-doc SHARE}, only the doc's first paragraph blanked, its further
 * paragraphs and tags kept, as in code whose doc says more than the asker) and of navigation
 * queries (a unique name as the identifier and as a phrase); the copy indexed cold by {@link
 * HybridIndex} with the static code model; each query asked in HYBRID, and every candidate the
 * learned ranker would order written with its features ({@link EngineProbes#rankerCandidates}) and
 * its label: 1 when the hit it gives (at its definition's declaration) finds the target as the
 * benchmark counts it.
 *
 * <p>The features file (gzip): a {@code # features:} line, then per query a {@code Q} line (tree,
 * language group, query set, id) and one line per candidate: its label, its definition's key and
 * its features, tab-separated.
 */
final class RankerCollection {

  private RankerCollection() {}

  /** The {@code collect} step: {@link RankerTraining#main}'s options, without the step. */
  static void collect(Map<String, String> o) throws IOException {
    double documented = RankerTraining.atLeastZero(o, "documented", 0);
    if (documented > 1) {
      throw new IllegalArgumentException("train-ranker: --documented wants a share from 0 to 1,"
          + " not " + o.get("documented"));
    }
    double rest = RankerTraining.atLeastZero(o, "rest-of-doc", 0);
    if (documented + rest > 1) {
      throw new IllegalArgumentException("train-ranker: --rest-of-doc wants a share from 0 to 1"
          + " less --documented's, not " + o.get("rest-of-doc"));
    }
    List<TreeList> list = TreeList.readTraining(Path.of(RankerTraining.need(o, "training")));
    List<Contamination.Finding> found = Contamination.check(list,
        TreeList.readQuality(Path.of(RankerTraining.need(o, "quality"))));
    if (!found.isEmpty()) {
      found.forEach(f -> System.err.println("train-ranker: refused: " + f));
      System.exit(3);
    }
    Path trees = Path.of(RankerTraining.need(o, "trees"));
    Path work = Path.of(RankerTraining.need(o, "work"));
    Path out = Path.of(RankerTraining.need(o, "out"));
    int nl = Integer.parseInt(o.getOrDefault("nl", "120"));
    int nav = Integer.parseInt(o.getOrDefault("nav", "30"));
    int perLanguage = Integer.parseInt(o.getOrDefault("max-trees-per-language", "8"));
    long maxBytes = Long.parseLong(o.getOrDefault("max-bytes", "4000000"));
    long seed = Long.parseLong(o.getOrDefault("seed", "38"));
    Map<String, Integer> taken = new TreeMap<>();
    Files.createDirectories(work);
    try (Writer w = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(
        Files.newOutputStream(out, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING)), StandardCharsets.UTF_8))) {
      w.write("# features: " + String.join(",", EngineProbes.rankerFeatures()) + "\n");
      for (TreeList t : list) {
        Path dir = trees.resolve(t.name());
        Language language = Language.of(t.language());
        String group = group(language);
        if (!Files.isDirectory(dir) || taken.getOrDefault(group, 0) >= perLanguage) {
          continue;
        }
        long bytes = size(dir);
        if (bytes > maxBytes) {
          continue;
        }
        long t0 = System.nanoTime();
        int queries = collectTree(t, language, dir, work.resolve(t.name()), nl, nav, documented, rest,
            seed, w);
        if (queries > 0) {
          taken.merge(group, 1, Integer::sum);
        }
        w.flush();
        System.err.printf(Locale.ROOT, "train-ranker: %-40s %-10s %5d queries (%.0f s)%n",
            t.name(), group, queries, (System.nanoTime() - t0) / 1e9);
      }
    }
    System.err.println("train-ranker: trees per language " + taken);
  }

  /** The bytes of the regular files below {@code dir}. */
  private static long size(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
          .mapToLong(p -> p.toFile().length()).sum();
    }
  }

  /** The held-out group of a language: TSX counts as TypeScript. */
  static String group(Language language) {
    return language == Language.TSX ? "typescript" : language.id();
  }

  private static int collectTree(TreeList t, Language language, Path pristine, Path root, int nl,
      int nav, double documented, double rest, long seed, Writer w) throws IOException {
    Trees.delete(root);
    CorpusFiles.copyTree(pristine, root);
    List<String> files = CorpusFiles.files(root);
    List<String> sources = files.stream().filter(language::isSource)
        .filter(TrainingPairs::kept).toList();
    List<Definition> defs = DefinitionExtractor.definitions(pristine, sources, language);
    List<NlQuery> nlQueries = QuerySets.naturalLanguage(defs,
        RetrievalQuality.texts(pristine, sources), nl, seed).queries();
    List<NavQuery> navQueries = QuerySets.navigation(defs, nav, seed + 1);
    if (nlQueries.isEmpty()) {
      Trees.delete(root);
      return 0;
    }
    AnswerDoc.apply(root, nlQueries,
        AnswerDoc.draw(nlQueries.size(), documented, rest, seed ^ t.name().hashCode()));
    HybridIndexOptions options = HybridIndexOptions.builder(root).embeddingThreads(1)
        .embeddingCommitInterval(Duration.ofDays(1))
        .embedder(EmbedderProvider.find("prism-code-v1-t1").orElseThrow().create()).build();
    int n = 0;
    try (HybridIndex index = HybridIndex.open(options)) {
      index.refresh(RefreshOptions.FULL);
      String group = group(language);
      for (NlQuery q : nlQueries) {
        n += write(w, t.name(), group, "nl", q.query(), q.target(), index, n);
      }
      for (NavQuery q : navQueries) {
        n += write(w, t.name(), group, "nav-identifier", q.identifier(), q.target(), index, n);
        n += write(w, t.name(), group, "nav-phrase", q.phrase(), q.target(), index, n);
      }
    }
    Trees.delete(root);
    return n;
  }

  /** Writes one query's candidates; returns 1 when it had any. */
  private static int write(Writer w, String tree, String group, String set, String query,
      Definition target, HybridIndex index, int n) throws IOException {
    List<RankerCandidate> rows = EngineProbes.rankerCandidates(index, query, 10);
    if (rows.isEmpty()) {
      return 0;
    }
    StringBuilder sb = new StringBuilder();
    sb.append("Q\t").append(tree).append('\t').append(group).append('\t').append(set).append('\t')
        .append(tree).append('/').append(n).append('\n');
    for (RankerCandidate c : rows) {
      sb.append(found(c, target) ? '1' : '0').append('\t').append(definition(c));
      for (double x : c.features()) {
        sb.append('\t');
        if (x == 0) {
          sb.append('0');
        } else {
          sb.append(String.format(Locale.ROOT, "%.5g", x));
        }
      }
      sb.append('\n');
    }
    w.write(sb.toString());
    return 1;
  }

  /**
   * Whether the hit of candidate {@code c} finds {@code target}: in its file, at its definition's
   * declaration (where the engine reports a definition) or, for a plain window, inside the target.
   */
  static boolean found(RankerCandidate c, Definition target) {
    if (!c.path().equals(target.path())) {
      return false;
    }
    if (c.symbolLine() > 0) {
      return target.contains(c.symbolLine());
    }
    return c.start() >= target.startLine() && c.end() <= target.endLine();
  }

  /**
   * The definition a candidate's hit stands for (one hit per definition), as the engine keys it.
   */
  private static String definition(RankerCandidate c) {
    String key = c.symbolLine() == 0 ? c.chunkId()
        : c.path() + '#' + c.symbolLine() + ':' + c.symbolName();
    return key.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }
}
