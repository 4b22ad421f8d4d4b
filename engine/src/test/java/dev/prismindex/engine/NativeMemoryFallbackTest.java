package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.engine.internal.NativeLibrary;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An index run during which the native library cannot allocate memory indexes the file anyway,
 * by the Java paths (the tree-sitter binding, the Java n-grams), and the process goes on: its
 * definitions are found at their lines, its text by literal search. The failure is forced with
 * the library's test switch at the run's first native allocation and inside the parse.
 */
class NativeMemoryFallbackTest {

  @TempDir Path root;
  @TempDir Path homes;

  @AfterEach
  void switchOff() {
    if (NativeLibrary.loaded()) {
      NativeLibrary.failAllocationAfter(-1);
    }
  }

  @ParameterizedTest(name = "allocation {0} fails")
  @ValueSource(longs = {0, 1, 40})
  void aFileWhoseNativeCodeRunsOutOfMemoryIsStillIndexed(long n) throws Exception {
    assumeTrue(NativeLibrary.loaded(), "the native library is built for linux-x86_64 only");
    write(root, "src/Durations.java", """
        package p;

        /** Durations in text. */
        public class Durations {
          /** Parses a duration such as {@code 5s}. */
          public static long parseDuration(String text) {
            return Long.parseLong(text.substring(0, text.length() - 1));
          }
        }
        """);
    HybridIndexOptions options = HybridIndexOptions.builder(root).home(homes.resolve("i" + n))
        .semantic(false).threads(1).build();
    try (HybridIndex index = HybridIndex.open(options)) {
      NativeLibrary.failAllocationAfter(n);
      IndexRunStats run = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(NativeLibrary.failAllocationAfter(-1)).as("allocation %d refused", n)
          .isNegative();
      assertThat(run.added()).isEqualTo(1);

      List<Hit> hits = index.search("parseDuration", SearchOpts.lexical(5));
      assertThat(hits).isNotEmpty();
      assertThat(hits.get(0).path()).isEqualTo("src/Durations.java");
      assertThat(hits.get(0).symbol()).as("found as a definition").isEqualTo("parseDuration");
      assertThat(hits.get(0).line()).isEqualTo(6);

      List<Hit> literal = index.search("Long.parseLong(text", SearchOpts.literal(5, true));
      assertThat(literal).extracting(Hit::path, Hit::line)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("src/Durations.java", 7));
    }
  }
}
