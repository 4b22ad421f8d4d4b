package dev.prismindex.benchmarks;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.testing.EngineProbes;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of embedding one chunk ({@code embed}, the indexing path) and one query ({@code
 * embedQuery}, the search path) with an embedder chosen by its provider id: {@code
 * prism-code-v1-t1}, prism-index's static code model (module model-code), or {@code
 * all-minilm-l6-v2-q-t64}, the bundled MiniLM (module model-minilm), side by side. The chunk is
 * what the engine embeds for a 24-line Java method (the engine's embed text: its context header, the
 * text with identifiers split, and the original, about 1,200 characters); the query a doc
 * sentence of ten words. The models are loaded in the setup. Score in microseconds per call.
 *
 * <p>Command (issue 38):
 *
 * <pre>{@code java -Djmh.ignoreLock=true -jar benchmarks/target/benchmarks.jar CodeEmbedderBenchmark}</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class CodeEmbedderBenchmark {

  static final String SOURCE = """
      package org.example.cache;

      import java.util.LinkedHashMap;
      import java.util.Map;

      public final class LruCache<K, V> {
        private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true);
        private final int maximumSize;

        public LruCache(int maximumSize) {
          this.maximumSize = maximumSize;
        }

        public V getOrCompute(K key, java.util.function.Function<K, V> loader) {
          V value = entries.get(key);
          if (value == null) {
            value = loader.apply(key);
            entries.put(key, value);
            while (entries.size() > maximumSize) {
              Map.Entry<K, V> eldest = entries.entrySet().iterator().next();
              entries.remove(eldest.getKey());
            }
          }
          return value;
        }
      }
      """;

  static final String QUERY = "Returns the cached value or computes it when the key is missing";

  @Param({"prism-code-v1-t1", "all-minilm-l6-v2-q-t64"})
  String model;

  private Embedder embedder;
  private List<String> chunk;

  @Setup
  public void setUp() {
    embedder = EmbedderProvider.find(model).orElseThrow(
        () -> new IllegalStateException("no embedder " + model + " on the class path")).create();
    try (EngineProbes.Chunking chunker = EngineProbes.chunking()) {
      Chunk method = chunker.chunk(SOURCE, "java").stream()
          .filter(c -> c.primary() != null && c.primary().name().equals("getOrCompute"))
          .findFirst().orElseThrow();
      chunk = List.of(EngineProbes.embedText("src/main/java/org/example/cache/LruCache.java", method));
    }
    embedder.embed(chunk);
    embedder.embedQuery(QUERY);
  }

  @Benchmark
  public float[] embed() {
    return embedder.embed(chunk).get(0);
  }

  @Benchmark
  public float[] embedQuery() {
    return embedder.embedQuery(QUERY);
  }
}
