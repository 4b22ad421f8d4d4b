package dev.prismindex.benchmarks;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * A JMH-free timing harness for preliminary figures (the JMH benchmarks live in the benchmarks
 * module, next to it). Uses the public engine API only. Usage, after
 * {@code mvn -pl benchmarks -am package -DskipTests}:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.EngineTiming \
 *     index DIR                 # cold index, size, no-change and one-edit reindex, queries
 * java ... EngineTiming cold DIR HOME RUNS   # cold lexical index: wall and CPU time per run
 * java ... EngineTiming phases DIR HOME FILE RUNS
 *     # RUNS incremental refreshes of an existing lexical index, alternately with nothing changed
 *     # and with FILE (relative to DIR) edited: time to each phase (IndexProgress) per run
 * java ... EngineTiming hybrid DIR HOME THREADS [REPS]
 *     # with the real model, REPS times: the model alone on the corpus's distinct chunk texts,
 *     # then a cold index with THREADS embedding threads (chunks/s and CPU per chunk of both);
 *     # then index size and warm query latency per mode
 * java ... EngineTiming raw DIR THREADS REPS
 *     # the model alone on the corpus's distinct chunk texts (batches of 32 on THREADS threads,
 *     # as the pipeline calls it), REPS times: chunks/s and CPU per chunk, median
 * </pre>
 *
 * <p>The generated corpus DIR comes from the benchmarks module, the one generator of the engine's
 * figures: {@code java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.EngineCorpus
 * DIR FILES}.
 */
public final class EngineTiming {
  private EngineTiming() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "index" -> index(Path.of(args[1]), args.length > 2 ? args[2] : null);
      case "cold" -> cold(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]));
      case "phases" -> phases(Path.of(args[1]), Path.of(args[2]), args[3],
          Integer.parseInt(args[4]));
      case "hybrid" -> hybrid(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]),
          args.length > 4 ? Integer.parseInt(args[4]) : 1);
      case "raw" -> raw(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      default -> throw new IllegalArgumentException(args[0]);
    }
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
    HybridIndexOptions options =
        HybridIndexOptions.builder(dir).home(home).semantic(false).build();
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
        index.search(new IndexQuery(literal[warm % literal.length], SearchMode.INDEXED_LITERAL, null, 100, false,
            AbortSignal.create(), 10_000));
      }
      long[] lex = new long[800];
      long[] lit = new long[800];
      for (int i = 0; i < lex.length; i++) {
        long t = System.nanoTime();
        index.search(lexical[i % lexical.length], opts);
        lex[i] = System.nanoTime() - t;
        t = System.nanoTime();
        index.search(new IndexQuery(literal[i % literal.length], SearchMode.INDEXED_LITERAL, null, 100, false,
            AbortSignal.create(), 10_000));
        lit[i] = System.nanoTime() - t;
      }
      System.out.printf("lexical (limit 10): p50 %.2f ms, p95 %.2f ms%n", pct(lex, 50), pct(lex, 95));
      System.out.printf("indexed_literal (100 files): p50 %.2f ms, p95 %.2f ms%n", pct(lit, 50),
          pct(lit, 95));
    }
  }

  /**
   * Where an incremental run's time goes: {@code runs} refreshes, odd ones after an edit of
   * {@code file} (a line appended, then removed), each printed with the elapsed time at which each
   * phase began (WALKING starts after the writer is open; the manifest is loaded after the walk,
   * before INDEXING) and the total. The file is restored at the end.
   */
  static void phases(Path dir, Path home, String file, int runs) throws Exception {
    Path victim = dir.resolve(file);
    byte[] original = Files.readAllBytes(victim);
    HybridIndexOptions options = HybridIndexOptions.builder(dir).home(home).semantic(false).build();
    try (HybridIndex index = HybridIndex.open(options)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (int i = 0; i < runs; i++) {
        boolean edit = i % 2 == 1;
        if (edit) {
          Files.write(victim, i % 4 == 1
              ? (new String(original, StandardCharsets.UTF_8) + "\n// edit\n")
                  .getBytes(StandardCharsets.UTF_8)
              : original);
        }
        StringBuilder phases = new StringBuilder();
        IndexProgress.Phase[] last = {null};
        long t = System.nanoTime();
        IndexRunStats r = index.refresh(RefreshOptions.INCREMENTAL.withProgress(p -> {
          if (p.phase() != last[0]) {
            last[0] = p.phase();
            phases.append(' ').append(p.phase()).append('@').append(p.elapsedMs());
          }
        }));
        System.out.printf("%s: %d ms (hashed %d, changed %d, committed %s);%s%n",
            edit ? "edit" : "none", (System.nanoTime() - t) / 1_000_000, r.hashed(), r.changed(),
            r.committed(), phases);
      }
    } finally {
      Files.write(victim, original);
    }
  }

  /**
   * Cold full index of {@code dir} into {@code home}, {@code runs} times: wall time and the process's
   * CPU time per run (CPU time is the steadier figure on a shared machine).
   */
  static void cold(Path dir, Path home, int runs) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    for (int i = 0; i < runs; i++) {
      HybridIndexOptions options =
        HybridIndexOptions.builder(dir).home(home).semantic(false).build();
      try (HybridIndex index = HybridIndex.open(options)) {
        long cpu = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        IndexRunStats stats = index.refresh(RefreshOptions.FULL);
        System.out.printf("cold run %d: wall %d ms, cpu %d ms, files %d, chunks %d%n", i,
            (System.nanoTime() - t0) / 1_000_000, (os.getProcessCpuTime() - cpu) / 1_000_000,
            stats.added(), stats.chunksWritten());
      }
    }
  }

  /**
   * The real model on a corpus: REPS times, alternately, the raw model over the corpus's distinct
   * chunk texts and a cold index (lexical phase, then the embedding phase) with {@code threads}
   * embedding threads; wall and process CPU time of each, best and median. Then the index size
   * and the warm query latency of the three modes, interleaved query by query.
   */
  static void hybrid(Path dir, Path home, int threads, int reps) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    Embedder model = EmbedderProvider.findDefault().orElseThrow().create();
    long t = System.nanoTime();
    model.embed(List.of("warm up"));
    System.out.printf("model %s: load + first call %d ms%n", model.id(),
        (System.nanoTime() - t) / 1_000_000);
    long sourceBytes = 0;
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile)
          .filter(p -> !dir.relativize(p).startsWith(".git")).toList()) {
        sourceBytes += Files.size(p);
      }
    }
    List<String> texts = VectorTiming.chunkTexts(dir, Integer.MAX_VALUE);
    List<Double> rawRates = new ArrayList<>();
    List<Double> pipeRates = new ArrayList<>();
    List<Double> rawCpu = new ArrayList<>();
    List<Double> pipeCpu = new ArrayList<>();
    HybridIndexOptions options = HybridIndexOptions.builder(dir).home(home).embedder(model)
        .embeddingThreads(threads).build();
    for (int rep = 0; rep < reps; rep++) {
      rawRep(os, model, texts, threads, rep, rawRates, rawCpu);
      Trees.delete(home);
      try (HybridIndex index = HybridIndex.open(options)) {
        long[] embeddingStart = {0, 0};
        t = System.nanoTime();
        IndexRunStats stats = index.refresh(RefreshOptions.FULL.withProgress(p -> {
          if (p.phase() == IndexProgress.Phase.EMBEDDING && embeddingStart[0] == 0) {
            embeddingStart[0] = System.nanoTime();
            embeddingStart[1] = os.getProcessCpuTime();
          }
        }));
        long end = System.nanoTime();
        double embedding = (end - embeddingStart[0]) / 1e9;
        double embedCpu = (os.getProcessCpuTime() - embeddingStart[1]) / 1e9;
        EngineStatus st = index.engineStatus();
        pipeRates.add(stats.chunksEmbedded() / embedding);
        pipeCpu.add(embedCpu * 1000 / stats.chunksEmbedded());
        System.out.printf("rep %d cold hybrid index, %d embedding thread(s): %.1f s = lexical "
            + "%.1f s + embedding %.1f s; %d files, %d chunks, %d texts embedded = %.1f chunks/s"
            + ", %.1f ms CPU per chunk%n", rep, threads, (end - t) / 1e9,
            (embeddingStart[0] - t) / 1e9, embedding, st.files(), st.chunks(),
            stats.chunksEmbedded(), stats.chunksEmbedded() / embedding,
            embedCpu * 1000 / stats.chunksEmbedded());
        if (rep == reps - 1) {
          System.out.printf("source %.1f MB; index with vectors %.1f MB = %.2f x source; "
              + "coverage %d/%d%n", sourceBytes / 1e6, st.sizeOnDiskBytes() / 1e6,
              st.sizeOnDiskBytes() / (double) sourceBytes, st.chunksEmbedded(), st.chunks());
          latencies(index);
        }
      }
    }
    System.out.printf("raw chunks/s best %.1f median %.1f; pipeline best %.1f median %.1f; "
        + "pipeline/raw best %.0f %%, median %.0f %%; CPU ms per chunk raw median %.1f, "
        + "pipeline median %.1f%n", max(rawRates), median(rawRates), max(pipeRates),
        median(pipeRates), 100 * max(pipeRates) / max(rawRates),
        100 * median(pipeRates) / median(rawRates), median(rawCpu), median(pipeCpu));
  }

  /** The raw model on the corpus's distinct chunk texts, {@code reps} times. */
  static void raw(Path dir, int threads, int reps) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    Embedder model = EmbedderProvider.findDefault().orElseThrow().create();
    model.embed(List.of("warm up"));
    List<String> texts = VectorTiming.chunkTexts(dir, Integer.MAX_VALUE);
    List<Double> rates = new ArrayList<>();
    List<Double> cpus = new ArrayList<>();
    for (int rep = 0; rep < reps; rep++) {
      rawRep(os, model, texts, threads, rep, rates, cpus);
    }
    System.out.printf("raw chunks/s median %.1f best %.1f; CPU ms per chunk median %.1f%n",
        median(rates), max(rates), median(cpus));
  }

  /**
   * One repetition of the raw model over {@code texts} in batches of 32 on {@code threads}
   * threads: adds its chunks per second to {@code rates} and its CPU milliseconds per chunk to
   * {@code cpus}, and prints both.
   */
  private static void rawRep(com.sun.management.OperatingSystemMXBean os, Embedder model,
      List<String> texts, int threads, int rep, List<Double> rates, List<Double> cpus)
      throws Exception {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    long cpu0 = os.getProcessCpuTime();
    long t = System.nanoTime();
    List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < texts.size(); i += 32) {
      List<String> batch = texts.subList(i, Math.min(texts.size(), i + 32));
      futures.add(pool.submit(() -> model.embed(batch)));
    }
    for (var f : futures) {
      f.get();
    }
    pool.shutdown();
    double secs = (System.nanoTime() - t) / 1e9;
    double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
    rates.add(texts.size() / secs);
    cpus.add(cpu * 1000 / texts.size());
    System.out.printf("rep %d raw model, %d thread(s): %d texts in %.1f s = %.1f chunks/s, "
        + "%.1f ms CPU per chunk%n", rep, threads, texts.size(), secs, texts.size() / secs,
        cpu * 1000 / texts.size());
  }

  private static double max(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }

  private static double median(List<Double> v) {
    double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length == 0 ? 0 : s.length % 2 == 1 ? s[s.length / 2]
        : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /** Warm latency of the three modes, interleaved query by query (same conditions for all). */
  static void latencies(HybridIndex index) throws IOException {
    String[] queries = {"parse duration config", "validate the session token",
        "render widget", "cache", "flush buffer stream", "where are payments encoded",
        "resolve schema record", "decodeBufferQueue", "how is the user order updated",
        "computeMetricEvent", "serialize a date to json", "read the next token"};
    SearchMode[] modes = {SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID};
    for (int warm = 0; warm < 150; warm++) {
      index.search(queries[warm % queries.length] + " w" + warm,
          new SearchOpts(10, modes[warm % modes.length], null));
    }
    int n = 400;
    long[][] nanos = new long[modes.length][n];
    for (int i = 0; i < n; i++) {
      for (int m = 0; m < modes.length; m++) {
        // A distinct query text every time, so no cache of any layer helps.
        String q = queries[i % queries.length] + " q" + i;
        long q0 = System.nanoTime();
        index.search(q, new SearchOpts(10, modes[m], null));
        nanos[m][i] = System.nanoTime() - q0;
      }
    }
    for (int m = 0; m < modes.length; m++) {
      System.out.printf("%s (limit 10, query embedding included): p50 %.2f ms, p95 %.2f ms%n",
          modes[m], pct(nanos[m], 50), pct(nanos[m], 95));
    }
  }

  private static double pct(long[] nanos, int p) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, s.length * p / 100)] / 1e6;
  }
}
