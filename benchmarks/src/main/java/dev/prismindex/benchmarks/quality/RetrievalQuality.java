package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.Trees;
import dev.prismindex.benchmarks.quality.Evaluation.Latency;
import dev.prismindex.benchmarks.quality.QuerySets.ExactQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NavQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NlSet;
import dev.prismindex.benchmarks.quality.Ranking.GrepBaseline;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The retrieval-quality benchmark (issues 8 and 14): rebuilds public corpora in five languages
 * outside the repository (the JDK's {@code src.zip} and repositories the script fetches), derives
 * natural-language (CodeSearchNet style), navigation and exactness query sets from their library
 * source, indexes each corpus cold with {@link HybridIndex}, and prints markdown tables per corpus
 * and pooled: MRR@10 and Recall@1/5/10 per mode (strict: the hit's line inside the target
 * definition, see {@link GroundTruth}), where rank 1 went wrong, the "either engine" recall, a
 * grep-style baseline, build figures and warm hybrid latency. A measurement, not a timing: nothing
 * here is JMH.
 *
 * <p>Command: {@code scripts/bench-quality} (see its {@code --help}: it fetches and verifies the
 * corpora, builds the jar and finds the JDK's {@code src.zip}). Options of this class: {@code
 * --src-zip ZIP} and {@code --select} (the JDK corpus and its comma-separated src.zip selectors,
 * {@code prefix/*} or {@code prefix/**}), {@code --repo NAME[:LANGUAGE]=DIR} (a further corpus: a
 * repository tree, language java by default), {@code --about NAME=TEXT} (what the corpus is, for
 * the header), {@code --work DIR}, {@code --out FILE}, {@code --nl N}, {@code --nav N}, {@code
 * --exact N} (per kind), {@code --seed S}, {@code --fusion K:WL:WS} (HYBRID's fusion as RRF then the
 * hand-set stack, 10:1:1 the engine's {@code Fusion.rrf()}, or {@code learned}: the engine's
 * learned ranker, its default), {@code --no-semantic} (a lexical-only index), {@code --reuse} (keep an
 * existing work directory and index: for iterating on query-time ranking only), {@code
 * --queries-only} (extract and print the query sets' counts, no index), {@code --embedder ID} (the
 * embedding model by its provider id, e.g. {@code prism-code-v1-t1}; default the engine's first
 * provider, MiniLM), {@code --workspace} (also ask every corpus's natural-language queries of one
 * workspace of all the corpora), {@code --combined} (also ask them of one repository index over
 * all the corpora: {@link CombinedQuality}), {@code --documented} (the answers' doc comments stay
 * in the indexed copy: the sentence describes a documented function, as in code that has its docs;
 * the same queries), {@code --rest-of-doc} (only the first paragraph of each answer's doc, which
 * holds the sentence, is blanked: the doc's further paragraphs and tags stay, as in code whose doc
 * says more than the asker).
 */
public final class RetrievalQuality {

  /** The default JDK selection: java.util (not its sub-packages), java.time, java.text. */
  static final List<String> DEFAULT_SELECT = List.of("java.base/java/util/*",
      "java.base/java/time/**", "java.base/java/text/**");

  /** A corpus: the JDK selection of a src.zip, or a repository directory. */
  private record Corpus(String name, Language language, @Nullable Path srcZip, @Nullable Path dir) {}

  /**
   * What one corpus gave, for the overall section; {@code pristine} (the tree before any doc is
   * blanked), its {@code sources} (relative paths) and {@code defs} let the workspace run apply
   * the query-set rules across corpora.
   */
  record CorpusResult(String name, Language language, int files, int definitions,
      int documented, List<Outcome> nl, List<Outcome> nav, long chunks, double indexMb,
      double buildSeconds, @Nullable Latency latency, Path pristine, List<String> sources,
      List<Definition> defs) {}

  private final Path work;
  private final int nlCount;
  private final int navCount;
  private final int exactPerKind;
  private final long seed;
  private final boolean reuse;
  private final Fusion fusion;
  private double auxiliaryWeight = SearchOpts.DEFAULT_AUXILIARY_WEIGHT;
  private java.net.@org.jspecify.annotations.Nullable URI openSearch;
  private final boolean semantic;
  private final boolean queriesOnly;
  private final StringBuilder report = new StringBuilder();
  private final List<CorpusResult> results = new ArrayList<>();
  private List<String> select = DEFAULT_SELECT;
  /** The embedder's provider id, or null for the engine's default. */
  private @Nullable String embedder;
  /** What the indexed copy keeps of each answer's doc comment. */
  private AnswerDoc answerDoc = AnswerDoc.BLANKED;

  private RetrievalQuality(Path work, int nlCount, int navCount, int exactPerKind, long seed,
      boolean reuse, Fusion fusion, boolean semantic, boolean queriesOnly) {
    this.work = work;
    this.nlCount = nlCount;
    this.navCount = navCount;
    this.exactPerKind = exactPerKind;
    this.seed = seed;
    this.reuse = reuse;
    this.fusion = fusion;
    this.semantic = semantic;
    this.queriesOnly = queriesOnly;
  }

  /**
   * Runs the benchmark; see the class comment for the options.
   *
   * @throws IOException when a corpus cannot be read or written or the index fails
   */
  public static void main(String[] args) throws IOException {
    Options o = Options.parse(args);
    RetrievalQuality q = new RetrievalQuality(o.work.toAbsolutePath().normalize(), o.nl, o.nav,
        o.exact, o.seed, o.reuse, o.fusion, o.semantic, o.queriesOnly);
    q.select = o.select;
    q.auxiliaryWeight = o.auxiliaryWeight;
    q.openSearch = o.openSearch;
    q.embedder = o.embedder;
    q.answerDoc = o.answerDoc;
    List<Corpus> corpora = new ArrayList<>();
    if (o.srcZip != null) {
      corpora.add(new Corpus("jdk", Language.JAVA, o.srcZip, null));
    }
    for (Map.Entry<String, Path> e : o.repos.entrySet()) {
      corpora.add(new Corpus(e.getKey(), o.languages.get(e.getKey()), null, e.getValue()));
    }
    q.header(corpora, o.about);
    for (Corpus c : corpora) {
      q.runCorpus(c);
    }
    if (!o.queriesOnly) {
      q.overall();
      if (o.workspace) {
        new WorkspaceQuality(q.results, q.work, q.semantic, q.embedder, q.fusion,
            q.auxiliaryWeight, q.report).run();
      }
      if (o.combined) {
        new CombinedQuality(q.results, q.work, q.semantic, q.embedder, q.fusion,
            q.auxiliaryWeight, q.reuse, q.report).run();
      }
    }
    String md = q.report.toString();
    System.out.println(md);
    if (o.out != null) {
      Path parent = o.out.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(o.out, md, StandardCharsets.UTF_8);
      log("tables written to " + o.out);
    }
  }

  private void header(List<Corpus> corpora, Map<String, String> about) throws IOException {
    line("<!-- generated by scripts/bench-quality; seed " + seed + " -->");
    line("");
    line("| | |");
    line("| --- | --- |");
    line("| runtime | " + System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version") + ", " + Runtime.getRuntime()
        .availableProcessors() + " processors |");
    line("| analyzer | `" + HybridIndex.ANALYZER_VERSION + "` |");
    line(fusion.ranker() ? "| hybrid ranking | the learned ranker `"
        + dev.prismindex.engine.testing.EngineProbes.rankerVersion() + "` |"
        : String.format(Locale.ROOT, "| hybrid ranking | RRF k = %d, weights lexical %s, semantic"
        + " %s |", fusion.k(), fusion.lexicalWeight(), fusion.semanticWeight()));
    line("| path prior | auxiliary files' scores x " + auxiliaryWeight + " |");
    line("| embedder | " + (!semantic ? "none (lexical only)" : embedder != null ? "`" + embedder
        + "` (--embedder)" : EmbedderProvider.findDefault().map(p -> "`" + p.id() + "` (default)")
        .orElse("none on the class path")) + " |");
    for (Corpus c : corpora) {
      String what = c.srcZip != null ? "`src.zip` of " + jdkVersion(c.srcZip) + "; selection `"
          + String.join("`, `", select) + "`" : about.getOrDefault(c.name, "a repository tree");
      line("| corpus `" + c.name + "` (" + c.language.id() + ") | " + what + " |");
    }
    line("| load average at start | " + loadAverage() + " |");
    line("");
    line("Queries. Natural language: the first sentence of a library function's doc comment"
        + " (CodeSearchNet style; markup reduced to text; a leading word equal to the function's"
        + " name, as Go docs start, dropped so the query does not hold the identifier), the doc"
        + answerDoc.described + " Navigation: a library definition's name, unique in"
        + " the corpus, as the identifier and as its split name phrase. Targets are library source"
        + " only (no test, example, bench, doc, codegen or tool files). A query is found at rank r"
        + " when the r-th hit is in the target's file and its reported line lies within the"
        + " definition (header to end). \"Either engine\": found in the top 10 by lexical or by"
        + " semantic alone.");
    line("");
  }

  /** The JDK release the src.zip belongs to (its {@code release} file), or "unknown". */
  private static String jdkVersion(Path srcZip) throws IOException {
    Path real = srcZip.toRealPath();
    for (Path dir = real.getParent(); dir != null; dir = dir.getParent()) {
      Path release = dir.resolve("release");
      if (Files.isRegularFile(release)) {
        for (String l : Files.readAllLines(release)) {
          if (l.startsWith("JAVA_RUNTIME_VERSION=") || l.startsWith("IMPLEMENTOR_VERSION=")) {
            return l.substring(l.indexOf('=') + 1).replace("\"", "");
          }
        }
      }
    }
    return "unknown";
  }

  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).strip();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private void line(String s) {
    report.append(s).append('\n');
  }

  // ---------------------------------------------------------------------------------------------

  private void runCorpus(Corpus c) throws IOException {
    Path root = work.resolve(c.name);
    Path pristine = c.dir != null ? c.dir : work.resolve(c.name + ".orig");
    boolean fresh = !(reuse && Files.isDirectory(root.resolve(".prism-index"))
        && Files.isDirectory(pristine));
    if (fresh) {
      Trees.delete(root);
      if (c.srcZip != null) {
        Trees.delete(pristine);
        Files.createDirectories(pristine);
        CorpusFiles.extractZip(c.srcZip, select, pristine);
      }
      int n = CorpusFiles.copyTree(pristine, root);
      log(c.name + ": " + n + " files copied into " + root);
    } else {
      log(c.name + ": reusing " + root + " and its index");
    }
    List<String> files = CorpusFiles.files(root);
    List<String> sources = files.stream().filter(c.language::isSource).toList();
    List<Definition> defs = DefinitionExtractor.definitions(pristine, sources, c.language);
    NlSet nlSet = QuerySets.naturalLanguage(defs, texts(pristine, sources), nlCount, seed);
    List<NavQuery> nav = QuerySets.navigation(defs, navCount, seed + 1);
    if (fresh) {
      for (AnswerDoc d : AnswerDoc.values()) {
        if (d.marker != null) {
          Files.deleteIfExists(work.resolve(c.name + d.marker));
        }
      }
      if (answerDoc.marker != null) {
        Files.writeString(work.resolve(c.name + answerDoc.marker), answerDoc.option + "\n");
      }
      answerDoc.apply(root, nlSet.queries());
    } else if (prepared(c) != answerDoc) {
      throw new IllegalArgumentException("bench-quality: " + root + " was prepared "
          + (prepared(c).option != null ? "with " + prepared(c).option
          : "with the answers' doc comments blanked")
          + "; --reuse it as it was prepared, or prepare another --work");
    }
    Map<String, String> texts = new LinkedHashMap<>();
    Map<String, List<String>> sourceLines = new LinkedHashMap<>();
    long bytes = 0;
    long lineCount = 0;
    for (String f : files) {
      byte[] data = Files.readAllBytes(root.resolve(f));
      bytes += data.length;
      if (isBinary(data)) {
        continue;
      }
      String t = new String(data, StandardCharsets.UTF_8);
      texts.put(f, t);
      List<String> ls = t.lines().toList();
      lineCount += ls.size();
      if (c.language.isSource(f)) {
        sourceLines.put(f, ls);
      }
    }
    line("### Corpus `" + c.name + "` (" + c.language.id() + ")");
    line("");
    line(String.format(Locale.ROOT, "%d files (%d %s sources), %d lines, %.1f MB; %d definitions"
        + " found (%d functions with a body); %d documented library functions (dropped: %d first"
        + " sentences under %d words, %d shared by several definitions; not drawn: %d whose"
        + " sentence stands elsewhere in the source); %d natural-language and %d navigation"
        + " queries sampled (seed %d).", files.size(), sources.size(),
        c.language.id(), lineCount, bytes / 1e6, defs.size(),
        defs.stream().filter(Definition::isFunctionWithBody).count(), nlSet.documented(),
        nlSet.tooShort(), QuerySets.MIN_WORDS, nlSet.duplicate(), nlSet.restated(),
        nlSet.queries().size(),
        nav.size(), seed));
    line("");
    if (queriesOnly) {
      List<Outcome> listed = new ArrayList<>();
      for (NlQuery q : nlSet.queries()) {
        listed.add(new Outcome(c.name, "nl", q.query(), q.target(), Map.of(), 0));
      }
      for (NavQuery q : nav) {
        listed.add(new Outcome(c.name, "nav-identifier", q.identifier(), q.target(), Map.of(), 0));
      }
      Details.write(work.resolve(c.name + "-queries.tsv"), listed);
      log(c.name + ": queries in " + work.resolve(c.name + "-queries.tsv"));
      return;
    }
    // One embedding thread and one commit at the end: the vectors are added in one order, so the
    // HNSW graph, and with it every semantic figure, is the same from run to run (with two
    // threads, Rust's semantic navigation moved by up to 0.02 between runs of one build).
    HybridIndexOptions.Builder builder = HybridIndexOptions.builder(root).semantic(semantic)
        .embeddingThreads(1).embeddingCommitInterval(Duration.ofDays(1));
    if (embedder != null && semantic) {
      builder.embedder(EmbedderProvider.find(embedder).orElseThrow().create());
    }
    HybridIndexOptions options = builder.build();
    try (HybridIndex index = HybridIndex.open(options)) {
      long t0 = System.nanoTime();
      index.refresh(fresh ? RefreshOptions.FULL : RefreshOptions.INCREMENTAL);
      double seconds = (System.nanoTime() - t0) / 1e9;
      EngineStatus status = index.engineStatus();
      boolean hybrid = index.capabilities().semantic();
      List<SearchMode> modes = hybrid
          ? List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)
          : List.of(SearchMode.LEXICAL);
      Evaluation eval = new Evaluation(c.name, index, modes, fusion, auxiliaryWeight,
          new GrepBaseline(new ArrayList<>(texts.keySet()), texts));
      List<Outcome> nlOut = eval.naturalLanguage(nlSet.queries());
      List<Outcome> navOut = eval.navigation(nav);
      Latency latency = hybrid ? eval.latency(nlSet.queries().stream().map(NlQuery::query)
          .toList(), SearchMode.HYBRID) : null;
      double mb = status.sizeOnDiskBytes() / 1e6;
      line(String.format(Locale.ROOT, "Index: %d chunks (%d embedded), %.1f MB, %s, built in %.0f"
          + " s%s (load average after: %s).%s", status.chunks(), status.chunksEmbedded(), mb,
          hybrid ? "hybrid" : "lexical", seconds, fresh ? " from empty" : " (reused)",
          loadAverage(), latency == null ? "" : String.format(Locale.ROOT, " Warm hybrid query"
          + " latency over the natural-language queries: median %.1f ms, p95 %.1f ms.",
          latency.medianMs(), latency.p95Ms())));
      line("");
      Tables tables = new Tables(report);
      line("#### Natural language (" + nlOut.size() + " queries)");
      line("");
      tables.queryTable(nlOut, modes, "Mode");
      line("#### Navigation (" + nav.size() + " definitions, each as the identifier and as a"
          + " phrase)");
      line("");
      tables.navigationTables(navOut, modes);
      if (c.language == Language.JAVA && c.srcZip != null) {
        index.refresh(RefreshOptions.INCREMENTAL); // attests freshness for the seam
        List<ExactQuery> exact = QuerySets.exactness(sourceLines, exactPerKind, seed + 2);
        new Exactness(report).run(index, root, exact, sourceLines);
      }
      if (openSearch != null) {
        new ClusterComparison(openSearch, fusion, auxiliaryWeight, report).compare(c.name,
            options, modes, nlSet.queries(), nav, nlOut, navOut, texts, seconds, latency);
      }
      List<Outcome> all = new ArrayList<>(nlOut);
      all.addAll(navOut);
      Path tsv = work.resolve(c.name + "-details.tsv");
      Details.write(tsv, all);
      log(c.name + ": per-query ranks in " + tsv);
      results.add(new CorpusResult(c.name, c.language, files.size(), defs.size(),
          nlSet.documented(), nlOut, navOut, status.chunks(), mb, seconds, latency, pristine,
          sources, defs));
    }
  }

  /** The text of each of {@code files} (relative to {@code dir}), by path. */
  static Map<String, String> texts(Path dir, List<String> files) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    for (String f : files) {
      out.put(f, new String(Files.readAllBytes(dir.resolve(f)), StandardCharsets.UTF_8));
    }
    return out;
  }

  private static boolean isBinary(byte[] data) {
    for (int i = 0; i < Math.min(data.length, 8192); i++) {
      if (data[i] == 0) {
        return true;
      }
    }
    return false;
  }

  /** What corpus {@code c}'s copy in the work directory keeps of its answers' docs (its marker). */
  private AnswerDoc prepared(Corpus c) {
    for (AnswerDoc d : AnswerDoc.values()) {
      if (d.marker != null && Files.exists(work.resolve(c.name + d.marker))) {
        return d;
      }
    }
    return AnswerDoc.BLANKED;
  }

  // ---------------------------------------------------------------------------------------------

  private void overall() {
    if (results.isEmpty()) {
      return;
    }
    boolean hybrid = results.stream().allMatch(r -> r.latency != null);
    List<SearchMode> modes = hybrid
        ? List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)
        : List.of(SearchMode.LEXICAL);
    SearchMode main = hybrid ? SearchMode.HYBRID : SearchMode.LEXICAL;
    List<Outcome> nl = new ArrayList<>();
    List<Outcome> nav = new ArrayList<>();
    line("## Overall");
    line("");
    line("| corpus | language | files | definitions | documented library functions | NL queries"
        + " | nav queries | chunks | index MB | build s | hybrid median ms | hybrid p95 ms |");
    line("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (CorpusResult r : results) {
      nl.addAll(r.nl);
      nav.addAll(r.nav);
      line(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %d | %d | %.1f | %.0f | %s"
          + " | %s |", r.name, r.language.id(), r.files, r.definitions, r.documented,
          r.nl.size(), r.nav.size() / 2, r.chunks, r.indexMb, r.buildSeconds,
          r.latency == null ? "—" : String.format(Locale.ROOT, "%.1f", r.latency.medianMs()),
          r.latency == null ? "—" : String.format(Locale.ROOT, "%.1f", r.latency.p95Ms())));
    }
    line("");
    Tables tables = new Tables(report);
    line("### Per corpus, " + Tables.name(main));
    line("");
    tables.corpusSummaryHeader();
    for (CorpusResult r : results) {
      tables.corpusSummaryRow(r.name, r.language.id(), r.nl, r.nav, main, hybrid);
    }
    line("");
    line("### Natural language, all corpora pooled (" + nl.size() + " queries)");
    line("");
    tables.queryTable(nl, modes, "Mode");
    line("### Navigation, all corpora pooled (" + nav.size() / 2 + " definitions)");
    line("");
    tables.navigationTables(nav, modes);
    tables.targets(nl, nav, hybrid);
  }

  static void log(String s) {
    System.err.println("bench-quality: " + s);
  }
}
