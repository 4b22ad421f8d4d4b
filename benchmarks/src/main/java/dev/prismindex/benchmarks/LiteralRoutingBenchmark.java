package dev.prismindex.benchmarks;

import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Item (e): the {@code literal} mode of the composite still goes to the literal scanner (not the
 * index) and finds {@code needle.ts} in a small real tree on disk ({@value #FILES} files plus
 * {@code src/feature/needle.ts}). Setup fails unless the answer is exactly that file and the index
 * was never asked; the benchmark measures the scanner through the composite.
 *
 * <p>Command:
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar LiteralRoutingBenchmark -rf json -rff literal.json}</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class LiteralRoutingBenchmark {

  static final int FILES = 500;

  private Path tree;
  private IndexHarness harness;

  @Setup(Level.Trial)
  public void setUp() {
    tree = createTree();
    harness = IndexHarness.onDisk(tree);
    check(harness);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    harness.close();
    Trees.delete(tree);
  }

  @Benchmark
  public RepositorySearchResult literalNeedle() {
    return harness.search("needle", SearchMode.LITERAL, null);
  }

  /** Writes the small tree: filler files in nested directories and one {@code needle.ts}. */
  static Path createTree() {
    try {
      Path root = Files.createTempDirectory("prism-needle");
      for (int i = 0; i < FILES; i++) {
        Path file = root.resolve("src/dir" + (i % 20) + "/file" + i + ".ts");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "export const value" + i + " = " + i + ";\n// nothing to see\n",
            StandardCharsets.UTF_8);
      }
      Path needle = root.resolve("src/feature/needle.ts");
      Files.createDirectories(needle.getParent());
      Files.writeString(needle, "export const needle = 'found';\n", StandardCharsets.UTF_8);
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Fails unless a literal search finds exactly {@code src/feature/needle.ts}, from the scanner (no
   * index attestation, scanner counters set) and without the (empty) index being consulted.
   */
  static void check(IndexHarness harness) {
    RepositorySearchResult result = harness.search("needle", SearchMode.LITERAL, null);
    if (result.matches().size() != 1
        || !result.matches().get(0).path().equals("src/feature/needle.ts")
        || result.indexed() != null || result.scannedFiles() != FILES + 1
        || harness.backend().stats().updates() != 0) {
      throw new IllegalStateException("literal search did not come from the scanner: " + result);
    }
  }
}
