package dev.prismindex.engine;

import dev.prismindex.repository.AbortSignal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.commons.codec.digest.Blake3;
import org.bouncycastle.crypto.digests.Blake3Digest;

/**
 * A JMH-free timing harness for preliminary figures (the JMH benchmarks live in the benchmarks
 * module). Not a test. Usage, from {@code engine/} after {@code mvn test-compile}:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat cp.txt) dev.prismindex.engine.EngineTiming \
 *     generate DIR FILES        # writes a synthetic Java corpus of FILES files into DIR
 * java ... EngineTiming index DIR    # cold index, size, no-change and one-edit reindex, queries
 * java ... EngineTiming blake3       # BLAKE3 throughput: BouncyCastle vs commons-codec
 * </pre>
 */
public final class EngineTiming {
  private EngineTiming() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "generate" -> generate(Path.of(args[1]), Integer.parseInt(args[2]));
      case "index" -> index(Path.of(args[1]), args.length > 2 ? args[2] : null);
      case "blake3" -> blake3();
      default -> throw new IllegalArgumentException(args[0]);
    }
  }

  private static final String[] NOUNS = {"duration", "config", "request", "response", "cache",
      "index", "token", "stream", "buffer", "session", "user", "order", "payment", "metric",
      "widget", "parser", "schema", "record", "event", "queue"};
  private static final String[] VERBS = {"parse", "load", "store", "compute", "validate", "merge",
      "render", "flush", "resolve", "encode", "decode", "open", "close", "update", "find"};

  static void generate(Path dir, int files) throws IOException {
    Random r = new Random(42);
    for (int i = 0; i < files; i++) {
      String pkg = "pkg" + (i % 50);
      String cls = cap(NOUNS[r.nextInt(NOUNS.length)]) + cap(NOUNS[r.nextInt(NOUNS.length)]) + i;
      StringBuilder sb = new StringBuilder("package ").append(pkg).append(";\n\nimport java.util.*;\n\n");
      sb.append("/** Handles ").append(cls).append(". */\npublic class ").append(cls).append(" {\n");
      int methods = 3 + r.nextInt(10);
      for (int m = 0; m < methods; m++) {
        String name = VERBS[r.nextInt(VERBS.length)] + cap(NOUNS[r.nextInt(NOUNS.length)])
            + cap(NOUNS[r.nextInt(NOUNS.length)]);
        sb.append("  /** ").append(name).append(" for ").append(cls).append(". */\n");
        sb.append("  public int ").append(name).append(m).append("(String input, int count) {\n");
        int body = 2 + r.nextInt(15);
        for (int b = 0; b < body; b++) {
          sb.append("    int v").append(b).append(" = input.length() * ").append(r.nextInt(100))
              .append(" + count; // ").append(NOUNS[r.nextInt(NOUNS.length)]).append('\n');
        }
        sb.append("    return count;\n  }\n\n");
      }
      sb.append("}\n");
      Path f = dir.resolve(pkg).resolve(cls + ".java");
      Files.createDirectories(f.getParent());
      Files.writeString(f, sb.toString(), StandardCharsets.UTF_8);
    }
  }

  private static String cap(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  static void index(Path dir, String homeArg) throws Exception {
    Path home = homeArg != null ? Path.of(homeArg) : dir.resolveSibling(dir.getFileName() + "-index");
    long sourceBytes;
    long sourceFiles;
    try (Stream<Path> s = Files.walk(dir)) {
      List<Path> files = s.filter(Files::isRegularFile)
          .filter(p -> !dir.relativize(p).startsWith(".git")).toList();
      sourceFiles = files.size();
      long total = 0;
      for (Path p : files) {
        total += Files.size(p);
      }
      sourceBytes = total;
    }
    HybridIndexOptions options = HybridIndexOptions.builder(dir).home(home).build();
    try (HybridIndex index = HybridIndex.open(options)) {
      long t0 = System.nanoTime();
      IndexRunStats cold = index.refresh(RefreshOptions.FULL);
      long coldMs = (System.nanoTime() - t0) / 1_000_000;
      EngineStatus st = index.engineStatus();
      System.out.printf("source (without .git): %d files, %.1f MB%n", sourceFiles, sourceBytes / 1e6);
      System.out.printf("cold index: %d ms (%s)%n", coldMs, cold);
      System.out.printf("index size: %.1f MB = %.2f x source; files=%d chunks=%d%n",
          st.sizeOnDiskBytes() / 1e6, st.sizeOnDiskBytes() / (double) sourceBytes, st.files(),
          st.chunks());
      List<Long> noChange = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        long t = System.nanoTime();
        IndexRunStats r = index.refresh(RefreshOptions.INCREMENTAL);
        noChange.add((System.nanoTime() - t) / 1_000_000);
        if (r.committed()) {
          System.out.println("unexpected commit: " + r);
        }
      }
      System.out.println("no-change reindex ms: " + noChange);
      Path victim;
      try (Stream<Path> s = Files.walk(dir)) {
        victim = s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".java"))
            .findFirst().orElseThrow();
      }
      List<Long> edit = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        Files.writeString(victim, Files.readString(victim) + "\n// edit " + i + "\n");
        long t = System.nanoTime();
        IndexRunStats r = index.refresh(RefreshOptions.INCREMENTAL);
        edit.add((System.nanoTime() - t) / 1_000_000);
        if (r.changed() != 1) {
          System.out.println("unexpected: " + r);
        }
      }
      System.out.println("one-file edit reindex ms: " + edit);
      String[] lexical = {"parseDurationConfig", "validate session token", "render widget",
          "cache", "flush buffer stream", "HashMap", "resolve schema record", "encode payment"};
      String[] literal = {"count;", "input.length()", "Handles", "v1 = ", "return count",
          "session", "zzz-not-there", "public int"};
      SearchOpts opts = SearchOpts.lexical(10);
      for (int warm = 0; warm < 300; warm++) {
        index.search(lexical[warm % lexical.length], opts);
        index.literalSearch(literal[warm % literal.length], false, null, 100, true,
            AbortSignal.create());
      }
      long[] lex = new long[800];
      long[] lit = new long[800];
      for (int i = 0; i < lex.length; i++) {
        long t = System.nanoTime();
        index.search(lexical[i % lexical.length], opts);
        lex[i] = System.nanoTime() - t;
        t = System.nanoTime();
        index.literalSearch(literal[i % literal.length], false, null, 100, true,
            AbortSignal.create());
        lit[i] = System.nanoTime() - t;
      }
      System.out.printf("lexical (limit 10): p50 %.2f ms, p95 %.2f ms%n", pct(lex, 50), pct(lex, 95));
      System.out.printf("indexed_literal (100 files): p50 %.2f ms, p95 %.2f ms%n", pct(lit, 50),
          pct(lit, 95));
    }
  }

  private static double pct(long[] nanos, int p) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, s.length * p / 100)] / 1e6;
  }

  static void blake3() {
    byte[] data = new byte[16 * 1024 * 1024];
    new Random(1).nextBytes(data);
    for (int round = 0; round < 4; round++) {
      long t = System.nanoTime();
      for (int i = 0; i < 8; i++) {
        Blake3Digest d = new Blake3Digest(256);
        d.update(data, 0, data.length);
        d.doFinal(new byte[32], 0);
      }
      double bc = 8 * data.length / 1e6 / ((System.nanoTime() - t) / 1e9);
      t = System.nanoTime();
      for (int i = 0; i < 8; i++) {
        Blake3.initHash().update(data).doFinalize(new byte[32]);
      }
      double cc = 8 * data.length / 1e6 / ((System.nanoTime() - t) / 1e9);
      // Small inputs (typical source files: 8 KiB).
      t = System.nanoTime();
      for (int i = 0; i < 16_384; i++) {
        Blake3Digest d = new Blake3Digest(256);
        d.update(data, i, 8192);
        d.doFinal(new byte[32], 0);
      }
      double bcSmall = 16_384 * 8192 / 1e6 / ((System.nanoTime() - t) / 1e9);
      t = System.nanoTime();
      for (int i = 0; i < 16_384; i++) {
        Blake3.initHash().update(data, i, 8192).doFinalize(new byte[32]);
      }
      double ccSmall = 16_384 * 8192 / 1e6 / ((System.nanoTime() - t) / 1e9);
      System.out.printf("round %d: 16 MiB BouncyCastle %.0f MB/s, commons-codec %.0f MB/s; "
          + "8 KiB BouncyCastle %.0f MB/s, commons-codec %.0f MB/s%n", round, bc, cc, bcSmall,
          ccSmall);
    }
  }
}
