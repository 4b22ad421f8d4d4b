package dev.prismindex.benchmarks;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The corpus of the engine's lexical benchmarks and its persisted lexical index. {@code corpus} is
 * either {@value #GENERATED} ({@link EngineCorpus} with {@code files} files, written once under
 * {@code java.io.tmpdir/prism-engine-lexical-<files>/corpus} and reused, its files' modification
 * times set an hour back, as in a checkout older than git's racy-timestamp window) or the directory
 * of a real repository checked out outside this repository (used as it is; never modified except
 * by the one-file-edit benchmark, which restores the file). The index lives under
 * {@code java.io.tmpdir/prism-engine-lexical-<name>/index} (never inside the corpus) and is built
 * once (lexical only, no embeddings) and reused by later runs.
 */
final class EngineFixture {

  /** The {@code corpus} parameter value naming the generated corpus. */
  static final String GENERATED = "generated";

  /** Lexical queries of the generated corpus: identifiers and words of its vocabulary. */
  static final String[] GENERATED_LEXICAL = {"parseDurationConfig", "validate session token",
      "render widget", "cache", "flush buffer stream", "HashMap", "resolve schema record",
      "encode payment", "decodeBufferQueue", "computeMetricEvent"};
  /** indexed_literal queries of the generated corpus (one that matches nothing). */
  static final String[] GENERATED_LITERAL = {"count;", "input.length()", "Handles", "v1 = ",
      "return count", "session", "zzz-not-there", "public int", "WidgetCache", "* 42 + count"};
  /** Lexical queries of a real (Java) repository. */
  static final String[] REAL_LEXICAL = {"getBean", "bean factory", "parse date",
      "transaction manager", "http request header", "cache", "XMLHttpRequest",
      "resolve placeholder", "equals hash code", "convert string to number"};
  /** indexed_literal queries of a real (Java) repository (one that matches nothing). */
  static final String[] REAL_LITERAL = {"return null;", "@Override", "private static final",
      "IllegalArgumentException", "TODO", "hashCode()", "zzz-not-in-any-file", "toString",
      "import java.util.List;", "assertThat("};

  final Path root;
  final Path home;
  final String name;
  final boolean generated;
  /** The files the walker lists (the candidates for indexing), in path order, and their bytes. */
  final List<String> paths;
  final int sourceFiles;
  final long sourceBytes;

  private EngineFixture(Path root, Path home, String name, boolean generated, List<String> paths,
      long sourceBytes) {
    this.root = root;
    this.home = home;
    this.name = name;
    this.generated = generated;
    this.paths = paths;
    this.sourceFiles = paths.size();
    this.sourceBytes = sourceBytes;
  }

  /** Resolves {@code corpus} ({@value #GENERATED} or a directory), generating it when needed. */
  static EngineFixture resolve(String corpus, int files) {
    try {
      Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
      Path root;
      String name;
      boolean generated = corpus.equals(GENERATED);
      if (generated) {
        name = "generated-" + files;
        Path base = tmp.resolve("prism-engine-lexical-" + files);
        root = base.resolve("corpus");
        Path done = base.resolve("corpus.done");
        if (!Files.exists(done)) {
          Trees.delete(base);
          EngineCorpus.generate(root, files);
          age(root);
          Files.writeString(done, "ok\n");
        }
      } else {
        root = Path.of(corpus).toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
          throw new IllegalArgumentException("corpus is neither \"" + GENERATED
              + "\" nor a directory: " + corpus);
        }
        name = root.getFileName().toString();
      }
      Path home = tmp.resolve("prism-engine-lexical-" + name).resolve("index");
      List<String> paths = HybridIndex.walk(HybridIndexOptions.builder(root).home(home).build());
      long bytes = 0;
      for (String p : paths) {
        bytes += Files.size(root.resolve(p));
      }
      return new EngineFixture(root, home, name, generated, paths, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sets every file's modification time an hour back. */
  static void age(Path dir) throws IOException {
    FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000L);
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(p, old);
      }
    }
  }

  String[] lexicalQueries() {
    return generated ? GENERATED_LEXICAL : REAL_LEXICAL;
  }

  String[] literalQueries() {
    return generated ? GENERATED_LITERAL : REAL_LITERAL;
  }

  /** Opens the persisted lexical index (no model), bringing it up to date; prints the run. */
  HybridIndex openIndex() throws IOException {
    HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).home(home).semantic(false).build());
    IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
    System.out.printf(Locale.ROOT, "%ncorpus %s: %d files, %.1f MB; index at open: %s%n", name,
        sourceFiles, sourceBytes / 1e6, stats);
    return index;
  }
}
