package dev.prismindex.benchmarks.quality;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.prismindex.benchmarks.quality.Definition.Span;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.testing.EngineProbes;
import dev.prismindex.model.code.CodeTokenizer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * Mines the code model's training pairs from unpacked source trees, the way the quality benchmark
 * builds its natural-language queries: for every documented function or method with a body
 * ({@link DefinitionExtractor}), the first doc sentence ({@link DocSentence}: markup stripped, a
 * leading name dropped) is the query; sentences under {@value QuerySets#MIN_WORDS} words and
 * sentences shared by several definitions of a tree are dropped, and so is a pair already mined
 * from an earlier tree (same query, same code). The code side is exactly what the engine embeds
 * for that definition's chunk when the doc comment is blanked as the benchmark blanks it: the
 * file with that definition's doc bytes turned to spaces, chunked by the engine's chunker,
 * the chunk whose main symbol is the definition at its header line, through the engine's embed text.
 * Both sides are written as the tokens of the model's {@link CodeTokenizer}, so that the training
 * script never tokenizes.
 *
 * <p>Before anything, the training list is checked against the quality benchmark's corpora
 * ({@link Contamination}); the run stops with exit code 3 when any tree is one of them.
 *
 * <p>Command: {@code scripts/mine-code-pairs} (it downloads, verifies and unpacks the trees). This
 * class: {@code --training FILE --quality FILE [--check-only] [--trees DIR --out FILE.jsonl.gz]
 * [--code-tokens N]}. Output: one JSON object per line, {@code tree, language, path, name, line,
 * library, query, q} (query tokens) and {@code c} (code tokens, the first N, default 512); and
 * {@code FILE.stats.tsv} with the counts per tree and language.
 */
public final class TrainingPairs {

  /** Directories whose files are not the tree's own code (vendored, built or installed copies). */
  static final Set<String> SKIPPED_DIRS = Set.of("vendor", "node_modules", "third_party",
      "thirdparty", "third-party", "bower_components", "dist", "build", "out", "coverage");

  private final EngineProbes.Chunking chunker = EngineProbes.chunking();
  private final int codeTokens;
  private final Set<String> seen = new HashSet<>();
  private final Map<String, long[]> stats = new TreeMap<>();

  private TrainingPairs(int codeTokens) {
    this.codeTokens = codeTokens;
  }

  /**
   * Runs the check, then mines; see the class comment.
   *
   * @throws IOException when a list, a tree or the output cannot be read or written
   */
  public static void main(String[] args) throws IOException {
    Path training = null;
    Path quality = null;
    Path trees = null;
    Path out = null;
    boolean checkOnly = false;
    int codeTokens = 512;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--training" -> training = Path.of(arg(args, ++i));
        case "--quality" -> quality = Path.of(arg(args, ++i));
        case "--trees" -> trees = Path.of(arg(args, ++i));
        case "--out" -> out = Path.of(arg(args, ++i));
        case "--code-tokens" -> codeTokens = Integer.parseInt(arg(args, ++i));
        case "--check-only" -> checkOnly = true;
        default -> throw new IllegalArgumentException("mine-code-pairs: unknown option " + args[i]);
      }
    }
    if (training == null || quality == null) {
      throw new IllegalArgumentException("mine-code-pairs: give --training FILE --quality FILE");
    }
    List<TreeList> list = TreeList.readTraining(training);
    List<Contamination.Finding> found = Contamination.check(list,
        TreeList.readQuality(quality));
    if (!found.isEmpty()) {
      for (Contamination.Finding f : found) {
        System.err.println("mine-code-pairs: refused: " + f);
      }
      System.err.println("mine-code-pairs: the training list holds " + found.size()
          + " quality benchmark corpora; remove them (nothing mined)");
      System.exit(3);
    }
    System.err.println("mine-code-pairs: " + list.size() + " training trees, none of them a"
        + " quality benchmark corpus");
    if (checkOnly) {
      return;
    }
    if (trees == null || out == null) {
      throw new IllegalArgumentException("mine-code-pairs: give --trees DIR --out FILE");
    }
    TrainingPairs miner = new TrainingPairs(codeTokens);
    JsonFactory json = new JsonFactory();
    try (OutputStream os = new GZIPOutputStream(new BufferedOutputStream(
        Files.newOutputStream(out), 1 << 16), 1 << 16);
        JsonGenerator g = json.createGenerator(os, JsonEncoding.UTF8)) {
      g.setRootValueSeparator(new com.fasterxml.jackson.core.io.SerializedString("\n"));
      for (TreeList t : list) {
        Path dir = trees.resolve(t.name());
        if (!Files.isDirectory(dir)) {
          throw new IOException("no unpacked tree " + dir + " (run scripts/mine-code-pairs)");
        }
        long t0 = System.nanoTime();
        int n = miner.mine(t, dir, g);
        System.err.printf(Locale.ROOT, "mine-code-pairs: %-45s %6d pairs (%.1f s)%n", t.name(),
            n, (System.nanoTime() - t0) / 1e9);
      }
      g.writeRaw('\n');
    } finally {
      miner.chunker.close();
    }
    Path statsFile = out.resolveSibling(out.getFileName() + ".stats.tsv");
    try (PrintStream p = new PrintStream(Files.newOutputStream(statsFile), false,
        StandardCharsets.UTF_8)) {
      p.println("tree\tlanguage\tdocumented\tdropped_short\tdropped_duplicate\tno_chunk\tpairs");
      Map<String, long[]> byLanguage = new TreeMap<>();
      for (Map.Entry<String, long[]> e : miner.stats.entrySet()) {
        long[] v = e.getValue();
        p.println(e.getKey() + "\t" + v[0] + "\t" + v[1] + "\t" + v[2] + "\t" + v[3] + "\t" + v[4]);
        long[] sum = byLanguage.computeIfAbsent(e.getKey().split("\t")[1], k -> new long[5]);
        for (int i = 0; i < 5; i++) {
          sum[i] += v[i];
        }
      }
      for (Map.Entry<String, long[]> e : byLanguage.entrySet()) {
        long[] v = e.getValue();
        p.println("ALL\t" + e.getKey() + "\t" + v[0] + "\t" + v[1] + "\t" + v[2] + "\t" + v[3]
            + "\t" + v[4]);
        System.err.printf(Locale.ROOT, "mine-code-pairs: %-10s %7d pairs%n", e.getKey(), v[4]);
      }
    }
  }

  private static String arg(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException("mine-code-pairs: " + args[i - 1] + " needs a value");
    }
    return args[i];
  }

  /** A candidate pair before the per-tree filters. */
  private record Candidate(Definition def, String sentence) {}

  /** Mines one tree; returns the number of pairs written. */
  private int mine(TreeList tree, Path dir, JsonGenerator g) throws IOException {
    List<String> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .filter(TrainingPairs::kept).sorted().toList();
    }
    Map<Language, DefinitionExtractor> extractors = new LinkedHashMap<>();
    Map<String, List<Candidate>> bySentence = new LinkedHashMap<>();
    Map<String, byte[]> contents = new LinkedHashMap<>();
    try {
      for (String path : files) {
        Language language = Language.ofPath(path);
        if (language == null) {
          continue;
        }
        Path file = dir.resolve(path);
        if (Files.size(file) > HybridIndexOptions.DEFAULT_MAX_FILE_BYTES) {
          continue;
        }
        byte[] bytes = Files.readAllBytes(file);
        if (EngineProbes.binary(bytes, bytes.length)) {
          continue;
        }
        DefinitionExtractor x = extractors.computeIfAbsent(language, DefinitionExtractor::new);
        for (Definition d : x.extract(path, bytes)) {
          if (!d.isFunctionWithBody() || d.doc() == null) {
            continue;
          }
          String sentence = DocSentence.first(language, d.doc(), d.name());
          if (sentence == null) {
            continue;
          }
          contents.putIfAbsent(path, bytes);
          bySentence.computeIfAbsent(sentence.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
              .add(new Candidate(d, sentence));
        }
      }
    } finally {
      extractors.values().forEach(DefinitionExtractor::close);
    }
    int written = 0;
    for (List<Candidate> same : bySentence.values()) {
      Candidate c = same.get(0);
      long[] st = stats.computeIfAbsent(tree.name() + "\t" + c.def.language().id(),
          k -> new long[5]);
      st[0] += same.size();
      if (DocSentence.words(c.sentence) < QuerySets.MIN_WORDS) {
        st[1] += same.size();
        continue;
      }
      if (same.size() > 1) {
        st[2] += same.size();
        continue;
      }
      String code = codeText(c.def, contents.get(c.def.path()));
      if (code == null) {
        st[3]++;
        continue;
      }
      List<String> q = CodeTokenizer.tokens(c.sentence);
      List<String> ct = new ArrayList<>();
      CodeTokenizer.tokens(code, codeTokens, ct::add);
      if (q.isEmpty() || ct.isEmpty()
          || !seen.add(c.sentence.toLowerCase(Locale.ROOT) + "\u0000" + String.join(" ", ct))) {
        st[2]++;
        continue;
      }
      g.writeStartObject();
      g.writeStringField("tree", tree.name());
      g.writeStringField("language", c.def.language().id());
      g.writeStringField("path", c.def.path());
      g.writeStringField("name", c.def.name());
      g.writeNumberField("line", c.def.nameLine());
      g.writeBooleanField("library", LibraryPaths.isLibrary(c.def.path()));
      g.writeStringField("query", c.sentence);
      g.writeArrayFieldStart("q");
      for (String t : q) {
        g.writeString(t);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("c");
      for (String t : ct) {
        g.writeString(t);
      }
      g.writeEndArray();
      g.writeEndObject();
      st[4]++;
      written++;
    }
    return written;
  }

  /** Whether a tree file is mined: not in a dot, vendored or built directory, not minified. */
  static boolean kept(String path) {
    String[] parts = path.split("/");
    for (int i = 0; i < parts.length - 1; i++) {
      if (parts[i].startsWith(".") || SKIPPED_DIRS.contains(parts[i].toLowerCase(Locale.ROOT))) {
        return false;
      }
    }
    String file = parts[parts.length - 1];
    return !file.startsWith(".") && !file.contains(".min.");
  }

  /**
   * What the engine embeds for {@code def}'s chunk once its doc comment is blanked, or null when
   * the chunker gives the definition no chunk of its own that starts at its header.
   */
  @Nullable String codeText(Definition def, byte[] original) {
    byte[] bytes = original.clone();
    for (Span s : def.docSpans()) {
      CorpusFiles.blank(bytes, s.start(), s.end());
    }
    String text = EngineProbes.decode(bytes, bytes.length);
    for (Chunk c : chunker.chunk(text, def.language().engineId())) {
      Chunk.Symbol p = c.primary();
      if (p != null && p.line() == def.nameLine() && c.hasHeader()) {
        return EngineProbes.embedText(def.path(), c);
      }
    }
    return null;
  }
}
