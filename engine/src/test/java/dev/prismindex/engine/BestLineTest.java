package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The line a hit reports: a definition's header line for a query that describes it, the quoted
 * line for a query that quotes code from it.
 */
class BestLineTest {

  @TempDir Path root;

  private static final String SRC = """
      package p;

      public class Totals {
        private int total;

        /**
         * Resets the running total count to the given count.
         */
        public void reset(int total, int count) {
          int scaled = count * 2;
          this.total = count;
          log("reset total count " + total + count);
        }

        /// Counts the entries.
        /// Example: `Totals.entryCount(t)` gives the total.
        public int entryCount() {
          return total;
        }
      }
      """;

  private static int lineOf(String text) {
    List<String> lines = SRC.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i + 1;
      }
    }
    throw new AssertionError(text);
  }

  /** The hit on the chunk of {@code symbol} (the line rule, whatever the ranking). */
  private static Hit hit(HybridIndex index, String query, String symbol) throws Exception {
    return index.search(query, SearchOpts.lexical(10)).stream()
        .filter(h -> symbol.equals(h.symbol())).findFirst()
        .orElseThrow(() -> new AssertionError(query));
  }

  @Test
  void aDescriptionReportsTheHeaderAndQuotedCodeReportsItsLine() throws Exception {
    write(root, "p/Totals.java", SRC);
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).semantic(false).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      int header = lineOf("public void reset(int total, int count)");
      // Natural language: the doc line and the log line carry more of its words than the header
      // (and the log line two of its words verbatim: not a literal fragment).
      assertThat(hit(index, "resets the running total count", "reset").line()).isEqualTo(header);
      // Quoted code: the line holding it, though the header has the same terms.
      assertThat(hit(index, "this.total = count", "reset").line()).isEqualTo(lineOf("this.total = count;"));
      assertThat(hit(index, "int scaled = count", "reset").line()).isEqualTo(lineOf("int scaled ="));
      // A fragment the header holds too: the header.
      assertThat(hit(index, "reset(int total", "reset").line()).isEqualTo(header);
      // An identifier in a doc example above the header: the header, not the example.
      assertThat(hit(index, "entryCount", "entryCount").line()).isEqualTo(lineOf("public int entryCount()"));
    }
  }
}
