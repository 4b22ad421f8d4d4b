package dev.prismindex.engine.internal.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.engine.internal.NativeLibrary;
import dev.prismindex.engine.spi.Chunk;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A native parse that runs out of memory neither aborts the process nor loses the file: the scan
 * throws {@link NativeLibrary.NativeMemoryException}, the chunker parses that file with the
 * tree-sitter binding, and the library parses the next file as before. The allocation is made to
 * fail with the library's test switch ({@link NativeLibrary#failAllocationAfter}) at points all
 * through a chunking: tree-sitter's first allocations (the parser), allocations in its arena and,
 * with the arena cut short, from malloc, and the scan's own buffers at the end.
 */
class NativeMemoryTest {

  private static final String JAVA = """
      package p;

      /** Durations in text. */
      public class Durations {
        private final long scale;

        /** Parses a duration such as {@code 5s}. */
        public static long parseDuration(String text) {
          return Long.parseLong(text.substring(0, text.length() - 1));
        }

        interface Unit {
          long toMillis(long amount);
        }

        long scaled(long amount) {
          return amount * scale;
        }
      }
      """;

  private static final String RUST = """
      cfg_rt! {
          pub fn spawn<F>(future: F) -> JoinHandle<F::Output> {
              spawn_inner(future)
          }
      }

      impl Runtime {
          pub fn block_on<F: Future>(&self, future: F) -> F::Output {
              self.inner.block_on(future)
          }
      }
      """;

  private static final Chunker BINDING = new Chunker(false);
  private static final Chunker NATIVE = NativeDefinitions.available() ? new Chunker(true) : null;

  @AfterEach
  void switchOff() {
    if (NATIVE != null) {
      NativeLibrary.failAllocationAfter(-1);
      NativeDefinitions.arenaLimit(0);
    }
  }

  @AfterAll
  static void close() {
    BINDING.close();
    if (NATIVE != null) {
      NATIVE.close();
    }
  }

  @ParameterizedTest(name = "{0}, arena limit {1}")
  @CsvSource({"java, 0", "java, 4096", "rust, 0", "rust, 4096"})
  void aFileWhoseNativeParseRunsOutOfMemoryIsParsedByTheBinding(String language, long arenaLimit) {
    assumeTrue(NATIVE != null, "the native library is built for linux-x86_64 only");
    String text = language.equals("java") ? JAVA : RUST;
    List<Chunk> expected = BINDING.chunk(text, language);
    assertThat(expected).as("definitions, not line windows")
        .anyMatch(c -> !c.symbols().isEmpty());
    NativeDefinitions.arenaLimit(arenaLimit);

    // How many allocations a whole native chunking of the file makes.
    long far = 1_000_000;
    NativeLibrary.failAllocationAfter(far);
    assertThat(NATIVE.chunk(text, language)).as("native, nothing failing").isEqualTo(expected);
    long allocations = far - NativeLibrary.failAllocationAfter(-1);
    assertThat(allocations).isGreaterThan(20);

    // Each of these allocations fails in turn: the first ones (the parser), some all through the
    // parse, and the last ones (the scan's own buffers).
    TreeSet<Long> points = new TreeSet<>();
    for (long k = 0; k < 10; k++) {
      points.add(k);
      points.add(allocations * k / 10);
      points.add(allocations - 1 - k);
    }
    for (long n : points) {
      NativeLibrary.failAllocationAfter(n);
      List<Chunk> chunks = NATIVE.chunk(text, language);
      assertThat(NativeLibrary.failAllocationAfter(-1)).as("allocation %d refused", n)
          .isNegative();
      assertThat(chunks).as("allocation %d refused: the file parsed by the binding", n)
          .isEqualTo(expected);
      // The library goes on: the next parse is native and whole.
      assertThat(NATIVE.chunk(text, language)).as("after allocation %d", n).isEqualTo(expected);
    }
  }
}
