package dev.prismindex.benchmarks;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Incremental re-index of a persisted lexical index ({@link EngineFixture}: the generated corpus of
 * {@code files} files, or {@code -p corpus=DIR} for a real repository), as {@code prism-index
 * index} runs it: a full {@link HybridIndex#refresh} with {@link RefreshOptions#INCREMENTAL} (walk,
 * manifest load, stat of every file, hash where stat data cannot prove the file unchanged).
 * {@code noChange}: nothing changed, so nothing is written (checked: no commit). {@code
 * oneFileEdit}: one file's content changed before each call (a line appended, then removed
 * again), so exactly that file is re-hashed, re-chunked and committed (checked by the counters).
 * The corpus is left as it was found; its files must be older than the racy-timestamp margin (2 s),
 * or their stat data cannot prove them unchanged. Targets: no-change re-index of 10 000 files
 * <= 300 ms reading no file (issue 16; checked: nothing hashed, skipped files included).
 *
 * <p>Command:
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar EngineReindexBenchmark -rf json -rff engine-reindex.json
 * java -jar benchmarks/target/benchmarks.jar EngineReindexBenchmark -p corpus=/path/to/spring-framework}</pre>
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class EngineReindexBenchmark extends EngineFixtureState {

  private IndexRunStats last;

  @Setup(Level.Trial)
  public void open() throws IOException {
    openFixture();
  }

  @TearDown(Level.Trial)
  public void printLast() {
    System.out.println("\nlast run: " + last);
  }

  /**
   * The edited file: the first Java file of 4-40 KB in the walk's path order (so one the engine
   * indexes), restored at the end.
   */
  @State(Scope.Benchmark)
  public static class Edit {
    private Path file;
    private byte[] original;
    private boolean edited;

    @Setup(Level.Trial)
    public void pick(EngineReindexBenchmark bench) throws IOException {
      for (String p : bench.fixture.paths) {
        Path candidate = bench.fixture.root.resolve(p);
        long size = Files.size(candidate);
        if (p.endsWith(".java") && size >= 4_096 && size <= 40_960) {
          file = candidate;
          break;
        }
      }
      if (file == null) {
        throw new IllegalStateException("no Java file of 4-40 KB in " + bench.fixture.name);
      }
      original = Files.readAllBytes(file);
      System.out.println("\nedited file: " + bench.fixture.root.relativize(file) + " ("
          + original.length + " bytes)");
    }

    @Setup(Level.Invocation)
    public void edit() throws IOException {
      edited = !edited;
      if (edited) {
        Files.write(file, (new String(original, StandardCharsets.UTF_8)
            + "\n// prism-index benchmark edit\n").getBytes(StandardCharsets.UTF_8));
      } else {
        Files.write(file, original);
      }
    }

    @TearDown(Level.Trial)
    public void restore(EngineReindexBenchmark bench) throws IOException {
      Files.write(file, original);
      bench.index.refresh(RefreshOptions.INCREMENTAL);
    }
  }

  @Benchmark
  public IndexRunStats noChange() throws IOException {
    IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
    if (stats.committed() || stats.added() + stats.changed() + stats.deleted() > 0) {
      throw new IllegalStateException("a no-change re-index wrote: " + stats);
    }
    if (stats.hashed() > 0) {
      throw new IllegalStateException("a no-change re-index read files again: " + stats);
    }
    last = stats;
    return stats;
  }

  @Benchmark
  public IndexRunStats oneFileEdit(Edit edit) throws IOException {
    IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
    if (!stats.committed() || stats.changed() != 1 || stats.added() + stats.deleted() > 0) {
      throw new IllegalStateException("a one-file edit re-indexed otherwise: " + stats);
    }
    last = stats;
    return stats;
  }
}
