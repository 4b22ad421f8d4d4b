package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.spi.ChunkDoc;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelativeFeaturesTest {

  private static RankFeatures.Row row(String path, int line, String name, double code,
      double signature) {
    double[] x = new double[RankFeatures.NAMES.size()];
    x[RankFeatures.HAND + 5] = code;
    x[RankFeatures.HAND + 6] = signature;
    return new RankFeatures.Row(line, null, null, new ChunkDoc(path + "#" + line, path, line,
        line + 3, new int[] {line}, List.of(name), "java", "ArrayUtils"), x);
  }

  @Test
  void anOverloadIsWeighedAgainstTheBestOfItsOverloadsAmongTheCandidates() {
    List<RankFeatures.Row> rows = List.of(
        row("ArrayUtils.java", 10, "subarray", 0.5, 0.4), // (char[] array, ...)
        row("ArrayUtils.java", 20, "subarray", 0.4, 0.3), // (boolean[] array, ...)
        row("ArrayUtils.java", 30, "subarray", 0.3, 0.2), // (int[] array, ...)
        row("ArrayUtils.java", 40, "toArray", 0.2, 0.1),
        row("Other.java", 10, "subarray", 0.9, 0.9));
    RelativeFeatures.overloads(rows);
    int at = RankFeatures.OVERLOADS;
    assertThat(rows.get(0).features()[at]).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(rows.get(1).features()[at]).isCloseTo(-0.1, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(rows.get(2).features()[at + 1]).isCloseTo(-0.2, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(rows.get(3).features()[at]).isZero(); // no overload
    assertThat(rows.get(4).features()[at]).isZero(); // another file's subarray is no overload
  }
}
