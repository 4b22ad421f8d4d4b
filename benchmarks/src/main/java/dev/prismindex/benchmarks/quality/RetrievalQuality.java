package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.Trees;
import dev.prismindex.benchmarks.quality.JavaSources.Definition;
import dev.prismindex.benchmarks.quality.QuerySets.ExactQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NavQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NlSet;
import dev.prismindex.benchmarks.quality.Ranking.GrepBaseline;
import dev.prismindex.benchmarks.quality.Ranking.Metrics;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.index.IndexedRepositoryOperations;
import dev.prismindex.index.IndexedRepositoryOptions;
import dev.prismindex.index.IndexLimits;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The retrieval-quality benchmark (issue 8): rebuilds public Java corpora outside the repository,
 * derives three query sets from them, indexes each corpus cold with {@link HybridIndex} (lexical
 * and, with the bundled model, semantic), and prints markdown tables of MRR@10 and Recall@1/5/10
 * per mode next to a grep-style baseline, plus recall and precision of {@code literal} and
 * {@code indexed_literal} against a full scan. A measurement, not a timing: nothing here is JMH.
 *
 * <p>Command (the script builds the jar and finds the JDK's {@code src.zip}):
 *
 * <pre>{@code scripts/bench-quality [--out FILE] [--repo NAME=DIR]}</pre>
 *
 * <p>or directly {@code java -cp benchmarks/target/benchmarks.jar
 * dev.prismindex.benchmarks.quality.RetrievalQuality --src-zip $JAVA_HOME/lib/src.zip --work
 * /tmp/prism-quality --out quality.md}. Options: {@code --select} (comma-separated src.zip
 * selectors, {@code prefix/*} or {@code prefix/**}), {@code --repo NAME=DIR} (a further corpus:
 * every {@code .java} file below DIR), {@code --nl N}, {@code --nav N}, {@code --exact N} (per
 * kind), {@code --seed S}, {@code --fusion K:WL:WS} (HYBRID's fusion, default plain RRF
 * 60:1:1), {@code --no-semantic} (a lexical-only index: quick, for iterating on lexical
 * ranking), {@code --reuse} (keep an existing work directory and index: only for
 * iterating on query-time ranking; the published tables come from a fresh run).
 */
public final class RetrievalQuality {

  /** The default JDK selection: java.util (not its sub-packages), java.time, java.text. */
  static final List<String> DEFAULT_SELECT = List.of("java.base/java/util/*",
      "java.base/java/time/**", "java.base/java/text/**");

  private final Path work;
  private final int nlCount;
  private final int navCount;
  private final int exactPerKind;
  private final long seed;
  private final boolean reuse;
  private final Fusion fusion;
  private final boolean semantic;
  private final StringBuilder report = new StringBuilder();

  private RetrievalQuality(Path work, int nlCount, int navCount, int exactPerKind, long seed,
      boolean reuse, Fusion fusion, boolean semantic) {
    this.fusion = fusion;
    this.semantic = semantic;
    this.work = work;
    this.nlCount = nlCount;
    this.navCount = navCount;
    this.exactPerKind = exactPerKind;
    this.seed = seed;
    this.reuse = reuse;
  }

  /**
   * Runs the benchmark; see the class comment for the options.
   *
   * @throws IOException when a corpus cannot be read or written or the index fails
   */
  public static void main(String[] args) throws IOException {
    Path srcZip = null;
    Path work = Path.of(System.getProperty("java.io.tmpdir"), "prism-quality");
    Path out = null;
    List<String> select = DEFAULT_SELECT;
    Map<String, Path> repos = new LinkedHashMap<>();
    int nl = 300;
    int nav = 200;
    int exact = 25;
    long seed = 8;
    boolean reuse = false;
    Fusion fusion = Fusion.rrf();
    boolean semantic = true;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--src-zip" -> srcZip = Path.of(value(args, ++i, a));
        case "--work" -> work = Path.of(value(args, ++i, a));
        case "--out" -> out = Path.of(value(args, ++i, a));
        case "--select" -> select = List.of(value(args, ++i, a).split(","));
        case "--repo" -> {
          String v = value(args, ++i, a);
          int eq = v.indexOf('=');
          if (eq <= 0 || eq == v.length() - 1 || !v.substring(0, eq).matches("[A-Za-z0-9._-]+")) {
            throw usage("--repo takes NAME=DIR (NAME of letters, digits, . _ -): " + v);
          }
          repos.put(v.substring(0, eq), Path.of(v.substring(eq + 1)));
        }
        case "--nl" -> nl = count(value(args, ++i, a), a);
        case "--nav" -> nav = count(value(args, ++i, a), a);
        case "--exact" -> exact = count(value(args, ++i, a), a);
        case "--seed" -> seed = Long.parseLong(value(args, ++i, a));
        case "--reuse" -> reuse = true;
        case "--no-semantic" -> semantic = false;
        case "--fusion" -> fusion = fusion(value(args, ++i, a));
        default -> throw usage("unknown option " + a);
      }
    }
    if (srcZip == null && repos.isEmpty()) {
      throw usage("give --src-zip (the JDK's lib/src.zip) and/or --repo NAME=DIR");
    }
    if (srcZip != null && !Files.isRegularFile(srcZip)) {
      throw usage("no such src.zip: " + srcZip);
    }
    for (Map.Entry<String, Path> e : repos.entrySet()) {
      if (!Files.isDirectory(e.getValue())) {
        throw usage("no such repository directory for " + e.getKey() + ": " + e.getValue());
      }
    }
    RetrievalQuality q = new RetrievalQuality(work.toAbsolutePath().normalize(), nl, nav, exact,
        seed, reuse, fusion, semantic);
    q.header(srcZip, select);
    if (srcZip != null) {
      q.runCorpus("jdk", srcZip, select, null);
    }
    for (Map.Entry<String, Path> e : repos.entrySet()) {
      q.runCorpus(e.getKey(), null, List.of(), e.getValue());
    }
    String md = q.report.toString();
    System.out.println(md);
    if (out != null) {
      Path parent = out.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(out, md, StandardCharsets.UTF_8);
      System.err.println("bench-quality: tables written to " + out);
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw usage(option + " needs a value");
    }
    return args[i];
  }

  private static int count(String v, String option) {
    try {
      int n = Integer.parseInt(v);
      if (n < 1) {
        throw usage(option + " must be at least 1: " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw usage(option + " takes a number: " + v);
    }
  }

  /** {@code K:LEXICAL_WEIGHT:SEMANTIC_WEIGHT}, e.g. {@code 60:1:1} (plain RRF). */
  private static Fusion fusion(String v) {
    String[] p = v.split(":");
    try {
      if (p.length != 3) {
        throw new NumberFormatException();
      }
      return new Fusion(Integer.parseInt(p[0]), Double.parseDouble(p[1]),
          Double.parseDouble(p[2]));
    } catch (NumberFormatException e) {
      throw usage("--fusion takes K:LEXICAL_WEIGHT:SEMANTIC_WEIGHT, e.g. 60:1:1: " + v);
    } catch (IllegalArgumentException e) {
      throw usage("--fusion " + v + ": " + e.getMessage());
    }
  }

  private static IllegalArgumentException usage(String message) {
    return new IllegalArgumentException("bench-quality: " + message);
  }

  private void header(Path srcZip, List<String> select) throws IOException {
    line("<!-- generated by scripts/bench-quality; seed " + seed + " -->");
    line("");
    line("| | |");
    line("| --- | --- |");
    line("| runtime | " + System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version") + ", " + Runtime.getRuntime()
        .availableProcessors() + " processors |");
    line("| analyzer | `" + HybridIndex.ANALYZER_VERSION + "` |");
    line(String.format(Locale.ROOT, "| hybrid fusion | RRF k = %d, weights lexical %s, semantic %s |",
        fusion.k(), fusion.lexicalWeight(), fusion.semanticWeight()));
    if (srcZip != null) {
      line("| JDK sources | `src.zip` of " + jdkVersion(srcZip) + "; selection `"
          + String.join("`, `", select) + "` |");
    }
    line("| load average at start | " + loadAverage() + " |");
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

  private static String loadAverage() {
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

  private void runCorpus(String name, Path srcZip, List<String> select, Path repo)
      throws IOException {
    Path root = work.resolve(name);
    Path pristine = work.resolve(name + ".orig");
    boolean fresh = !(reuse && Files.isDirectory(root.resolve(".prism-index"))
        && Files.isDirectory(pristine));
    if (fresh) {
      Trees.delete(root);
      Trees.delete(pristine);
      Files.createDirectories(pristine);
      int n = srcZip != null ? JavaSources.extractZip(srcZip, select, pristine)
          : JavaSources.copyTree(repo, pristine);
      JavaSources.copyTree(pristine, root);
      log(name + ": " + n + " files extracted into " + root);
    } else {
      log(name + ": reusing " + root + " and its index");
    }
    List<String> files = JavaSources.javaFiles(root);
    List<Definition> defs = JavaSources.definitions(pristine, files);
    NlSet nlSet = QuerySets.naturalLanguage(defs, nlCount, seed);
    if (fresh) {
      blankAnswerDocs(root, defs, nlSet.queries());
    }
    Map<String, String> texts = new LinkedHashMap<>();
    Map<String, List<String>> lines = new LinkedHashMap<>();
    long bytes = 0;
    long lineCount = 0;
    for (String f : files) {
      byte[] data = Files.readAllBytes(root.resolve(f));
      bytes += data.length;
      String t = new String(data, StandardCharsets.UTF_8);
      texts.put(f, t);
      List<String> ls = t.lines().toList();
      lines.put(f, ls);
      lineCount += ls.size();
    }
    List<NavQuery> nav = QuerySets.navigation(defs, navCount, seed + 1);
    List<ExactQuery> exact = QuerySets.exactness(lines, exactPerKind, seed + 2);

    HybridIndexOptions options = HybridIndexOptions.builder(root).semantic(semantic).build();
    try (HybridIndex index = HybridIndex.open(options)) {
      long t0 = System.nanoTime();
      index.refresh(fresh ? RefreshOptions.FULL : RefreshOptions.INCREMENTAL);
      double seconds = (System.nanoTime() - t0) / 1e9;
      EngineStatus status = index.engineStatus();
      boolean hybrid = index.capabilities().semantic();
      line("### Corpus `" + name + "`");
      line("");
      line(String.format(Locale.ROOT,
          "%d Java files, %d lines, %.1f MB; %s; %s index in %.0f s%s (load average after: %s).",
          files.size(), lineCount, bytes / 1e6, chunksText(status), hybrid ? "hybrid" : "lexical",
          seconds, fresh ? " from empty" : " (reused)", loadAverage()));
      line("");
      List<SearchMode> modes = hybrid
          ? List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)
          : List.of(SearchMode.LEXICAL);
      GrepBaseline grep = new GrepBaseline(files, texts);
      Details details = new Details();
      naturalLanguage(index, modes, grep, nlSet, details);
      navigation(index, modes, grep, nav, details);
      index.refresh(RefreshOptions.INCREMENTAL); // attests freshness for the seam
      exactness(index, root, exact, lines);
      details.write(work.resolve(name + "-details.tsv"));
      log(name + ": per-query ranks in " + work.resolve(name + "-details.tsv"));
    }
  }

  private static String chunksText(EngineStatus status) {
    return status.chunks() + " chunks (" + status.chunksEmbedded() + " embedded), index "
        + String.format(Locale.ROOT, "%.1f MB", status.sizeOnDiskBytes() / 1e6);
  }

  private static void blankAnswerDocs(Path root, List<Definition> defs, List<NlQuery> answers)
      throws IOException {
    Map<String, List<Definition>> byPath = new HashMap<>();
    Set<String> wanted = new LinkedHashSet<>();
    for (NlQuery q : answers) {
      wanted.add(q.path() + ":" + q.startLine());
    }
    for (Definition d : defs) {
      if (d.doc() != null && wanted.contains(d.path() + ":" + d.startLine())) {
        byPath.computeIfAbsent(d.path(), k -> new ArrayList<>()).add(d);
      }
    }
    for (Map.Entry<String, List<Definition>> e : byPath.entrySet()) {
      Path f = root.resolve(e.getKey());
      byte[] data = Files.readAllBytes(f);
      for (Definition d : e.getValue()) {
        JavaSources.blank(data, d.docStartByte(), d.docEndByte());
      }
      Files.write(f, data);
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** Ranks of one query form under every mode, chunk level and file level. */
  private static final class Row {
    final String label;
    final List<Integer> chunk = new ArrayList<>();
    final List<Integer> file = new ArrayList<>();

    Row(String label) {
      this.label = label;
    }
  }

  private interface Answer {
    boolean chunk(Hit h);

    String path();
  }

  private void naturalLanguage(HybridIndex index, List<SearchMode> modes, GrepBaseline grep,
      NlSet set, Details details) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (SearchMode m : modes) {
      rows.add(new Row(m.name().toLowerCase(Locale.ROOT)));
    }
    Row grepRow = new Row("grep -c baseline");
    for (NlQuery q : set.queries()) {
      Answer a = new Answer() {
        @Override
        public boolean chunk(Hit h) {
          return h.path().equals(q.path()) && h.line() <= q.endLine()
              && h.endLine() >= q.startLine();
        }

        @Override
        public String path() {
          return q.path();
        }
      };
      List<String> ranks = new ArrayList<>();
      for (int i = 0; i < modes.size(); i++) {
        rank(index, q.query(), modes.get(i), a, rows.get(i));
        ranks.add(rows.get(i).chunk.get(rows.get(i).chunk.size() - 1) + "");
      }
      grepRow.file.add(fileRank(grep.rank(q.query()), q.path()));
      details.add("nl", q.query(), q.path() + ":" + q.startLine() + "-" + q.endLine(), ranks);
    }
    rows.add(grepRow);
    line("#### Natural language (" + set.queries().size() + " queries)");
    line("");
    line(String.format(Locale.ROOT, "%d documented methods with a body; dropped: %d first"
        + " sentences under %d words, %d shared by several methods; %d sampled (seed %d).",
        set.documented(), set.tooShort(), QuerySets.MIN_WORDS, set.duplicate(),
        set.queries().size(), seed));
    line("");
    table(rows, "Mode");
  }

  private void navigation(HybridIndex index, List<SearchMode> modes, GrepBaseline grep,
      List<NavQuery> nav, Details details) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (String form : List.of("phrase", "identifier")) {
      List<Row> formRows = new ArrayList<>();
      for (SearchMode m : modes) {
        formRows.add(new Row(m.name().toLowerCase(Locale.ROOT) + ", " + form));
      }
      Row grepRow = new Row("grep -c baseline, " + form);
      for (NavQuery q : nav) {
        String text = form.equals("phrase") ? q.phrase() : q.identifier();
        Answer a = new Answer() {
          @Override
          public boolean chunk(Hit h) {
            return h.path().equals(q.path()) && h.line() <= q.line() && h.endLine() >= q.line();
          }

          @Override
          public String path() {
            return q.path();
          }
        };
        List<String> ranks = new ArrayList<>();
        for (int i = 0; i < modes.size(); i++) {
          rank(index, text, modes.get(i), a, formRows.get(i));
          ranks.add(formRows.get(i).chunk.get(formRows.get(i).chunk.size() - 1) + "");
        }
        grepRow.file.add(fileRank(grep.rank(text), q.path()));
        details.add("nav-" + form, text, q.path() + ":" + q.line(), ranks);
      }
      rows.addAll(formRows);
      rows.add(grepRow);
    }
    line("#### Navigation (" + nav.size() + " definitions, each as a phrase and as the identifier)");
    line("");
    table(rows, "Mode, query form");
  }

  private void rank(HybridIndex index, String query, SearchMode mode, Answer a, Row row)
      throws IOException {
    List<Hit> hits = index.search(query, new SearchOpts(Ranking.DEPTH, mode, null, fusion));
    int chunk = 0;
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < hits.size(); i++) {
      Hit h = hits.get(i);
      if (chunk == 0 && a.chunk(h)) {
        chunk = i + 1;
      }
      if (!paths.contains(h.path())) {
        paths.add(h.path());
      }
    }
    row.chunk.add(chunk);
    row.file.add(fileRank(paths, a.path()));
  }

  private static int fileRank(List<String> paths, String path) {
    int i = paths.indexOf(path);
    return i < 0 || i >= Ranking.DEPTH ? 0 : i + 1;
  }

  private void table(List<Row> rows, String first) {
    line("| " + first + " | MRR@10 | R@1 | R@5 | R@10 | file MRR@10 | file R@1 | file R@10 |");
    line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Row r : rows) {
      Metrics f = Metrics.of(r.file);
      String chunkCols;
      if (r.chunk.isEmpty()) {
        chunkCols = "— | — | — | —";
      } else {
        Metrics c = Metrics.of(r.chunk);
        chunkCols = String.format(Locale.ROOT, "%.3f | %.2f | %.2f | %.2f", c.mrr(), c.r1(),
            c.r5(), c.r10());
      }
      line(String.format(Locale.ROOT, "| %s | %s | %.3f | %.2f | %.2f |", r.label, chunkCols,
          f.mrr(), f.r1(), f.r10()));
    }
    line("");
  }

  // ---------------------------------------------------------------------------------------------

  private void exactness(HybridIndex index, Path root, List<ExactQuery> queries,
      Map<String, List<String>> lines) {
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(root,
        IndexedRepositoryOptions.builder(index,
                RepositoryOperations.local(RepositoryLimits.defaults()))
            .allowedModes(EnumSet.allOf(SearchMode.class))
            .limits(IndexLimits.builder()
                .staleMaxAgeMs(IndexLimits.HARD_MAX_INDEX_STALE_MAX_AGE_MS).build())
            .build());
    Map<String, long[]> byKind = new LinkedHashMap<>(); // kind -> counters
    List<String> misses = new ArrayList<>();
    for (ExactQuery q : queries) {
      Set<String> truth = new TreeSet<>(QuerySets.truth(q.literal(), lines));
      long[] c = byKind.computeIfAbsent(q.kind(), k -> new long[10]);
      c[0]++;
      c[1] += truth.size();
      int j = 2;
      for (SearchMode mode : List.of(SearchMode.LITERAL, SearchMode.INDEXED_LITERAL)) {
        RepositorySearchResult r = ops.search(RepositorySearchRequest.builder(root, q.literal())
            .mode(mode).caseSensitive(true).build());
        Set<String> got = new TreeSet<>();
        long pathOnly = 0;
        for (RepositorySearchMatch m : r.matches()) {
          if (m.score() != null && m.score() < 1.0) {
            pathOnly++; // an indexed_literal match of the path alone: not a content match
          } else {
            got.add(m.path());
          }
        }
        long tp = got.stream().filter(truth::contains).count();
        c[j] += tp;
        c[j + 1] += got.size() - tp;
        c[j + 2] += truth.size() - tp;
        if (got.equals(truth) && !r.truncated()) {
          c[j + 3]++;
        } else {
          misses.add(mode.wireName() + " `" + q.literal() + "`: truth " + truth.size()
              + " files, got " + got.size() + (r.truncated() ? " (truncated)" : "")
              + (pathOnly > 0 ? ", " + pathOnly + " path-only" : ""));
        }
        j += 4;
      }
    }
    line("#### Exactness (" + queries.size() + " literals, case-sensitive, file level; truth ="
        + " a full scan)");
    line("");
    line("| Kind | Literals | Truth files | `literal` recall | precision | exact sets"
        + " | `indexed_literal` recall | precision | exact sets |");
    line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    long[] all = new long[10];
    for (Map.Entry<String, long[]> e : byKind.entrySet()) {
      exactRow(e.getKey(), e.getValue());
      for (int i = 0; i < all.length; i++) {
        all[i] += e.getValue()[i];
      }
    }
    exactRow("**all**", all);
    line("");
    if (!misses.isEmpty()) {
      line("Differences from the truth:");
      line("");
      for (String m : misses) {
        line("* " + m);
      }
      line("");
    }
  }

  private void exactRow(String kind, long[] c) {
    line(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %d/%d | %s | %s | %d/%d |", kind,
        c[0], c[1], ratio(c[2], c[2] + c[4]), ratio(c[2], c[2] + c[3]), c[5], c[0],
        ratio(c[6], c[6] + c[8]), ratio(c[6], c[6] + c[7]), c[9], c[0]));
  }

  private static String ratio(long num, long den) {
    return den == 0 ? "1.000" : String.format(Locale.ROOT, "%.3f", (double) num / den);
  }

  // ---------------------------------------------------------------------------------------------

  /** Per-query ranks, written as TSV next to the corpus for analysis. */
  private static final class Details {
    private final StringWriter out = new StringWriter();
    private final PrintWriter w = new PrintWriter(out);

    Details() {
      w.println("set\tquery\tanswer\tranks (lexical, semantic, hybrid; 0 = not in top 10)");
    }

    void add(String set, String query, String answer, List<String> ranks) {
      w.println(set + "\t" + query.replace('\t', ' ') + "\t" + answer + "\t"
          + String.join("\t", ranks));
    }

    void write(Path file) throws IOException {
      w.flush();
      Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    }
  }

  private static void log(String s) {
    System.err.println("bench-quality: " + s);
  }
}
