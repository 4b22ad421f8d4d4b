package dev.prismindex.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexProgress.Phase;
import org.junit.jupiter.api.Test;

/** The progress line printed on a terminal (the terminal check itself: IndexAndStatusTest). */
class TerminalProgressTest {

  @Test
  void progressLine() {
    TerminalProgress p = new TerminalProgress(System.err, new long[] {0, 2_000_000_000L}.length
        == 2 ? clock(0, 2_000_000_000L) : null, false);
    assertThat(p.line()).isEqualTo("starting  (2s)");
    p.onProgress(new IndexProgress(Phase.INDEXING, 50, 200, 0, 0, 2_000));
    assertThat(p.line()).isEqualTo("indexing  50/200 files  25.0 files/s  ETA 6s  (2s)");
    p.onProgress(new IndexProgress(Phase.INDEXING, 50, 200, 100, 300, 2_000));
    assertThat(p.line()).isEqualTo(
        "indexing  50/200 files  100/300 chunks embedded  50.0 chunks/s  ETA 4s  (2s)");
    assertThat(TerminalProgress.duration(3725)).isEqualTo("1h02m");
    assertThat(TerminalProgress.duration(125)).isEqualTo("2m05s");
  }

  private static java.util.function.LongSupplier clock(long first, long then) {
    long[] calls = {0};
    return () -> calls[0]++ == 0 ? first : then;
  }
}
