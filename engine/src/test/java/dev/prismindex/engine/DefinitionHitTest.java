package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.testing.EngineProbes;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One hit per definition, at its declaration (issue 38 item 5): the pieces of a definition that
 * the chunker cuts apart (a long doc comment, the windows of a long body) give one hit, reported
 * at the declaration line unless the query quotes a line of it; a type's name as the query puts
 * the type's declaration first, not its constructors or a line of its Javadoc.
 */
class DefinitionHitTest {

  @TempDir Path root;

  /** A class whose Javadoc alone is longer than a chunk, with constructors and a long method. */
  private static final String STOP_WATCH = stopWatch();

  private static String stopWatch() {
    StringBuilder sb = new StringBuilder("package lang.time;\n\n/**\n");
    sb.append(" * <p>StopWatch provides a convenient API for timings.</p>\n");
    for (int i = 0; i < 40; i++) {
      sb.append(" * <p>To start the watch, call start() or createStarted(); the StopWatch then")
          .append(" counts elapsed time in nanoseconds, paragraph ").append(i).append(".</p>\n");
    }
    sb.append(" */\npublic class StopWatch {\n\n");
    sb.append("  private final String message;\n\n");
    sb.append("  /**\n   * Constructor of a StopWatch.\n   */\n");
    sb.append("  public StopWatch() {\n    this(null);\n  }\n\n");
    sb.append("  /**\n   * Constructor of a StopWatch with a message.\n   */\n");
    sb.append("  public StopWatch(final String message) {\n    this.message = message;\n  }\n\n");
    sb.append("  /**\n   * Splits the time of the watch into laps.\n");
    for (int i = 0; i < 30; i++) {
      sb.append("   * The lap ").append(i).append(" records the split time of the stop watch.\n");
    }
    sb.append("   */\n  public long splitLaps(long origin) {\n    long total = origin;\n");
    for (int i = 0; i < 70; i++) {
      sb.append("    total += lapDuration(").append(i).append(") * ").append(i).append(";\n");
    }
    sb.append("    long finalLapTotal = total * 2;\n    return finalLapTotal;\n  }\n\n");
    sb.append("  private long lapDuration(int lap) {\n    return lap;\n  }\n}\n");
    return sb.toString();
  }

  private static int lineOf(String text) {
    List<String> lines = STOP_WATCH.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i + 1;
      }
    }
    throw new AssertionError(text);
  }

  private void corpus() throws Exception {
    write(root, "src/lang/time/StopWatch.java", STOP_WATCH);
    for (int i = 0; i < 12; i++) {
      write(root, "src/lang/time/User" + i + ".java", "package lang.time;\n\nclass User" + i
          + " {\n  /** Times a StopWatch run. */\n  long time() {\n    StopWatch watch = new"
          + " StopWatch();\n    StopWatch other = new StopWatch(\"stop watch\");\n"
          + "    return 0;\n  }\n}\n");
    }
  }

  @Test
  void aTypeNameFindsTheTypeDeclarationFirst() throws Exception {
    corpus();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (String query : List.of("StopWatch", "stop watch")) {
        Hit top = index.search(query, SearchOpts.hybrid(10)).get(0);
        assertThat(top.path()).as(query).isEqualTo("src/lang/time/StopWatch.java");
        assertThat(top.line()).as(query).isEqualTo(lineOf("public class StopWatch {"));
        assertThat(top.snippet()).as(query).isEqualTo("public class StopWatch {");
      }
    }
  }

  @Test
  void aDefinitionIsOneHitAtItsDeclarationInEveryRankedMode() throws Exception {
    corpus();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      int split = lineOf("public long splitLaps(long origin)");
      int type = lineOf("public class StopWatch {");
      for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        for (String query : List.of("records the split time of the stop watch laps",
            "the lap duration total of the split laps")) {
          for (Fusion fusion : List.of(Fusion.rrf(), Fusion.learned())) {
            List<Hit> hits = index.search(query, new SearchOpts(20, mode, null, fusion));
            Set<Integer> lines = new HashSet<>();
            for (Hit h : hits) {
              if (h.path().endsWith("StopWatch.java")) {
                assertThat(lines.add(h.line())).as(mode + " " + query + ": " + hits).isTrue();
                // Every hit of the file is at a declaration: the method's or the type's.
                assertThat(h.line()).as(mode + " " + query).isIn(split, type,
                    lineOf("private long lapDuration"), lineOf("public StopWatch() {"),
                    lineOf("public StopWatch(final String message) {"));
              }
            }
            assertThat(lines).as(mode + " " + query + " " + fusion).contains(split);
          }
        }
      }
      // A quoted line of the definition reports that line, also in a window without the header.
      Hit quoted = index.search("long finalLapTotal = total", SearchOpts.lexical(10)).stream()
          .filter(h -> "splitLaps".equals(h.symbol())).findFirst().orElseThrow();
      assertThat(quoted.line()).isEqualTo(lineOf("long finalLapTotal = total * 2;"));
    }
  }

  /**
   * The learned ranker's feature {@code hand_rrf} is each candidate's place in the hand-set stack's
   * order (RRF, file coherence, the definition prior, the in-file promotion), computed in the same
   * search: ordered by it, the candidates give the hits of a search by {@code Fusion.rrf()}, for
   * sentences (a name is the identifier guard's, after either order).
   */
  @Test
  void theLearnedRankersHandStackFeatureIsTheDefaultOrder() throws Exception {
    corpus();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      List<String> names = EngineProbes.rankerFeatures();
      int hand = names.indexOf("hand_rrf");
      for (String query : List.of("records the split time of the stop watch laps",
          "the lap duration total of the split laps", "times a run of the watch for the user")) {
        // The hand-set stack's hits, one per definition, as path and symbol.
        List<String> expected = new ArrayList<>();
        for (Hit h : index.search(query, SearchOpts.builder().limit(10).mode(SearchMode.HYBRID)
            .fusion(Fusion.rrf()).build())) {
          expected.add(h.path() + ":" + h.symbol());
        }
        // The learned ranker's candidates ordered by their place in the hand stack.
        List<EngineProbes.RankerCandidate> rows =
            new ArrayList<>(EngineProbes.rankerCandidates(index, query, 10));
        assertThat(rows).allSatisfy(r -> assertThat(r.features()[hand]).isPositive());
        rows.sort(Comparator.comparingDouble(
            (EngineProbes.RankerCandidate r) -> r.features()[hand]).reversed());
        List<String> actual = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (EngineProbes.RankerCandidate r : rows) {
          String key = r.symbolLine() == 0 ? r.chunkId() : r.path() + "#" + r.symbolLine();
          if (seen.add(key) && actual.size() < expected.size()) {
            actual.add(r.path() + ":" + r.symbolName());
          }
        }
        assertThat(actual).as(query).isEqualTo(expected);
      }
    }
  }

  @Test
  void anImplementationComesBeforeItsStub() throws Exception {
    write(root, "pkg/more.pyi", "from typing import Iterable\n\n"
        + "def count_cycle(iterable: Iterable[int], n: int | None = ...) -> Iterable[int]: ...\n"
        + "def other(x: int) -> int: ...\n");
    write(root, "pkg/more.py", "import itertools\n\n\ndef count_cycle(iterable, n=None):\n"
        + "    \"\"\"Cycle through the items from iterable up to n times.\"\"\"\n"
        + "    iterable = tuple(iterable)\n    counter = itertools.count()\n"
        + "    return ((i, item) for i in counter for item in iterable)\n");
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (String query : List.of("count_cycle", "count cycle")) {
        Hit top = index.search(query, SearchOpts.hybrid(10)).get(0);
        assertThat(top.path() + ":" + top.line()).as(query).isEqualTo("pkg/more.py:4");
      }
    }
  }
}
