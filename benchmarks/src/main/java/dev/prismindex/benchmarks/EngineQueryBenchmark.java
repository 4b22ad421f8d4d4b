package dev.prismindex.benchmarks;

import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Warm query latency of the persistent engine per mode (LEXICAL, SEMANTIC, HYBRID; limit 10; the
 * query embedding included) over the generated corpus ({@link EngineCorpus}), or a repository
 * ({@code -p corpus=DIR}, queried with {@link EngineCorpus#QUERIES} too), indexed with a real model
 * ({@code -p model=ID}: the default, prism-index's static code model {@code prism-code-v1-t1}, or
 * {@code all-minilm-l6-v2-q-t64}). The generated corpus and each model's index are built once
 * under {@code java.io.tmpdir/prism-engine-bench-<files>} (a repository's index under {@code
 * java.io.tmpdir/prism-engine-bench-<directory name>}) and reused by later runs: each trial opens
 * the persisted index in a fresh {@link HybridIndex}, as a new process would. Targets: hybrid p95
 * <= 30 ms, semantic p95 <= 20 ms.
 *
 * <p>Command (from the repository root, after {@code mvn -B -ntp -pl benchmarks -am package
 * -DskipTests}):
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar EngineQueryBenchmark -rf json -rff engine-query.json}</pre>
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EngineQueryBenchmark extends SampledLatency {

  @Param({"5000"})
  public int files;

  /** The embedding model, by id. */
  @Param({"prism-code-v1-t1"})
  public String model;

  /** A repository to index and query instead of the generated corpus (empty: generated). */
  @Param({""})
  public String corpus;

  private HybridIndex index;
  private int next;

  @Setup(Level.Trial)
  public void open() throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Path root;
    Path base;
    if (corpus.isEmpty()) {
      base = tmp.resolve("prism-engine-bench-" + files);
      root = base.resolve("corpus");
      if (!Files.isDirectory(root)) {
        Trees.delete(base);
        EngineCorpus.generate(root, files);
      }
    } else {
      root = Path.of(corpus).toAbsolutePath().normalize();
      base = tmp.resolve("prism-engine-bench-" + root.getFileName());
    }
    Path home = base.resolve("index-" + model);
    HybridIndexOptions options = HybridIndexOptions.builder(root).home(home)
        .embedder(EmbedderProvider.find(model).orElseThrow(
            () -> new IllegalArgumentException("no model " + model)).create()).build();
    try {
      index = HybridIndex.open(options);
    } catch (IncompatibleIndexException e) {
      // An index cached by a build of another format (or model) is rebuilt, not a failed run.
      Trees.delete(home);
      index = HybridIndex.open(options);
    }
    // What `prism-index index` runs: an index an earlier run marked damaged is verified and rebuilt
    // when the damage is confirmed (a search would throw), an up-to-date one is left as it is.
    index.refresh(RefreshOptions.INCREMENTAL.withRepair());
    for (String q : EngineCorpus.QUERIES) {
      List<Hit> hits = index.search(q, SearchOpts.hybrid(10));
      if (hits.isEmpty()) {
        throw new IllegalStateException("no hybrid hit for " + q);
      }
    }
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    index.close();
  }

  private String query() {
    next = (next + 1) % EngineCorpus.QUERIES.length;
    return EngineCorpus.QUERIES[next];
  }

  @Benchmark
  public List<Hit> lexical() throws IOException {
    return index.search(query(), SearchOpts.lexical(10));
  }

  @Benchmark
  public List<Hit> semantic() throws IOException {
    return index.search(query(), SearchOpts.semantic(10));
  }

  @Benchmark
  public List<Hit> hybrid() throws IOException {
    return index.search(query(), SearchOpts.hybrid(10));
  }
}
