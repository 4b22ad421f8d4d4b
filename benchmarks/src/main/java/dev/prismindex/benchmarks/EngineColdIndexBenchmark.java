package dev.prismindex.benchmarks;

import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A cold index from an empty home of the generated corpus ({@link EngineCorpus}, {@code files}
 * files; 5 000 files are 23.0 MB) or, with {@code -p corpus=DIR}, of a real repository (see
 * {@link EngineFixture}): {@code semantic=false} is the lexical index alone, {@code semantic=true}
 * the hybrid index with the real model (lexical commit, then every chunk embedded; about 5-6
 * minutes for 5 000 files on two cores). One shot per fork; the index size with and without
 * vectors, divided by the source size (the bytes of the files the walker lists), is printed after
 * each shot.
 *
 * <p>Command:
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar EngineColdIndexBenchmark -rf json -rff engine-cold.json
 * java -jar benchmarks/target/benchmarks.jar EngineColdIndexBenchmark -p files=10000 -p semantic=false
 * java -jar benchmarks/target/benchmarks.jar EngineColdIndexBenchmark -p corpus=/path/to/repo -p semantic=false}</pre>
 */
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class EngineColdIndexBenchmark extends SingleShot {

  @Param({EngineFixture.GENERATED})
  public String corpus;

  @Param({"5000"})
  public int files;

  @Param({"false", "true"})
  public boolean semantic;

  private Path root;
  private Path home;
  private long sourceBytes;

  @Setup(Level.Trial)
  public void prepare() throws IOException {
    EngineFixture fixture = EngineFixture.resolve(corpus, files);
    root = fixture.root;
    sourceBytes = fixture.sourceBytes;
    makeBase("prism-engine-cold-");
    home = base.resolve("index");
  }

  @Benchmark
  public long coldIndex() throws IOException {
    HybridIndexOptions.Builder options = HybridIndexOptions.builder(root).home(home)
        .semantic(semantic);
    if (semantic) {
      options.embedder(EmbedderProvider.findDefault().orElseThrow().create());
    }
    try (HybridIndex index = HybridIndex.open(options.build())) {
      index.refresh(RefreshOptions.FULL);
      EngineStatus status = index.engineStatus();
      System.out.printf(Locale.ROOT, "%n%d files, %d chunks, %d embedded; index %.1f MB = %.2f x "
          + "source (%.1f MB)%n", status.files(), status.chunks(), status.chunksEmbedded(),
          status.sizeOnDiskBytes() / 1e6, status.sizeOnDiskBytes() / (double) sourceBytes,
          sourceBytes / 1e6);
      return status.chunks();
    } finally {
      Trees.delete(home);
    }
  }
}
