package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.benchmarks.quality.Outcome.ModeResult;
import dev.prismindex.benchmarks.quality.RetrievalQuality.CorpusResult;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The haystack control on a small real tree: two corpora holding a file of the same path, built
 * into one index under their subdirectories; a target is found only under its own corpus's.
 */
class CombinedQualityTest {

  @TempDir Path work;

  private static final String A = "def blend_colour_values(colour, other, ratio):\n"
      + "    blended_colour = colour * ratio + other * (1 - ratio)\n"
      + "    colour_values = [blended_colour, colour, other, ratio]\n"
      + "    return colour_values\n";
  private static final String B = "def mix_colour(colour, other):\n"
      + "    return colour + other\n";

  private CorpusResult corpus(String name, String text, String query) throws Exception {
    Path dir = work.resolve(name);
    Files.createDirectories(dir.resolve(".prism-index"));
    Files.writeString(dir.resolve(".prism-index/stale"), "not the corpus");
    Files.writeString(dir.resolve("lib.py"), text);
    List<Definition> defs;
    try (DefinitionExtractor x = new DefinitionExtractor(Language.PYTHON)) {
      defs = x.extract("lib.py", text.getBytes(StandardCharsets.UTF_8));
    }
    Definition target = defs.get(0);
    Outcome alone = new Outcome(name, "nl", query, target,
        Map.of(SearchMode.LEXICAL, new ModeResult(1, "lib.py", 1)), 0);
    return new CorpusResult(name, Language.PYTHON, 1, defs.size(), 1, List.of(alone), List.of(),
        1, 0, 0, null, dir, List.of("lib.py"), defs);
  }

  @Test
  void answersAreFoundOnlyUnderTheirCorpusSubdirectory() throws Exception {
    List<CorpusResult> results = List.of(
        corpus("a", A, "blend colour values by a ratio"),
        corpus("b", B, "the blended colour values of a colour and another"));
    StringBuilder report = new StringBuilder();
    new CombinedQuality(results, work, false, null, Fusion.rrf(),
        SearchOpts.DEFAULT_AUXILIARY_WEIGHT, false, report).run();

    Path root = work.resolve(CombinedQuality.DIR);
    assertThat(root.resolve("a/lib.py")).hasContent(A);
    assertThat(root.resolve("b/lib.py")).hasContent(B);
    // Each corpus's own index is not part of the combined tree.
    assertThat(root.resolve("a/.prism-index")).doesNotExist();

    List<String[]> rows = Files.readAllLines(work.resolve("combined-details.tsv")).stream()
        .skip(1).map(l -> l.split("\t")).toList();
    assertThat(rows).hasSize(2);
    String[] a = rows.get(0);
    String[] b = rows.get(1);
    assertThat(a[0]).isEqualTo("a");
    assertThat(a[4]).isEqualTo("a/lib.py:1-4");
    assertThat(a[5]).isEqualTo("1");
    assertThat(a[8]).isEqualTo("a/lib.py:1");
    assertThat(b[4]).isEqualTo("b/lib.py:1-2");
    // a/lib.py's function, lines 1-4 like b's target at the same relative path, ranks first for
    // b's query and does not count: b's target is its own corpus's hit, second.
    assertThat(b[8]).isEqualTo("a/lib.py:1");
    assertThat(b[5]).isEqualTo("2");
    assertThat(report.toString()).contains("## Combined").contains("| **pooled** | 2 |");
    assertThat(Arrays.asList(report.toString().split("\n")))
        .anyMatch(l -> l.startsWith("| python | 2 | 1.000 | 0.750 |"));

    // Reused only when it holds the same corpora: one corpus alone is rebuilt without b.
    new CombinedQuality(results.subList(0, 1), work, false, null, Fusion.rrf(),
        SearchOpts.DEFAULT_AUXILIARY_WEIGHT, true, new StringBuilder()).run();
    assertThat(root.resolve("b")).doesNotExist();
    assertThat(Files.readAllLines(work.resolve("combined-details.tsv"))).hasSize(2);
  }
}
