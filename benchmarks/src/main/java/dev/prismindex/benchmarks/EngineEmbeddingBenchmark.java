package dev.prismindex.benchmarks;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Embedding throughput of the raw model against the engine's indexing pipeline, on the same
 * corpus ({@link EngineCorpus}, {@code files} files): {@code rawModel} embeds the corpus's distinct
 * chunk texts directly (batches of 32 on two threads); {@code pipeline} runs a cold full
 * {@link HybridIndex#refresh} with two embedding threads (the lexical phase included: 4 % of the
 * run with issue 5's model, 6-10 % with issue 16's faster one). Both return the number of texts;
 * chunks per second = texts / seconds per shot, and the pipeline's share of the raw model's
 * throughput is the ratio of the two times (target >= 90 %).
 *
 * <p>Command:
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar EngineEmbeddingBenchmark -rf json -rff engine-embedding.json}</pre>
 */
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class EngineEmbeddingBenchmark extends SingleShot {

  @Param({"1000"})
  public int files;

  private Path corpus;
  private Embedder model;
  private List<String> texts;
  private int run;

  @Setup(Level.Trial)
  public void prepare() throws IOException {
    makeBase("prism-engine-embed-");
    corpus = base.resolve("corpus");
    EngineCorpus.generate(corpus, files);
    model = EmbedderProvider.findDefault().orElseThrow().create();
    model.embed(List.of("load the model"));
    texts = chunkTexts(corpus);
  }

  /** The distinct chunk texts of the corpus, as the engine cuts them (what a refresh embeds). */
  private static List<String> chunkTexts(Path root) throws IOException {
    return HybridIndex.chunkTexts(HybridIndexOptions.builder(root).build(), Integer.MAX_VALUE);
  }

  @Benchmark
  public int rawModel() throws InterruptedException, ExecutionException {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < texts.size(); i += 32) {
        List<String> batch = texts.subList(i, Math.min(texts.size(), i + 32));
        futures.add(pool.submit(() -> model.embed(batch)));
      }
      for (Future<?> f : futures) {
        f.get();
      }
      return texts.size();
    } finally {
      pool.shutdown();
    }
  }

  @Benchmark
  public long pipeline() throws IOException {
    Path home = base.resolve("index-" + run++);
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(corpus).home(home)
        .embedder(model).embeddingThreads(2).build())) {
      IndexRunStats stats = index.refresh(RefreshOptions.FULL);
      if (stats.chunksEmbedded() != texts.size()) {
        throw new IllegalStateException(
            "embedded " + stats.chunksEmbedded() + " of " + texts.size() + " texts");
      }
      return stats.chunksEmbedded();
    } finally {
      Trees.delete(home);
    }
  }
}
