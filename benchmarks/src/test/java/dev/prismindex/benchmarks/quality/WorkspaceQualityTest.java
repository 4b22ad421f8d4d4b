package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.benchmarks.quality.Definition.Kind;
import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import dev.prismindex.benchmarks.quality.WorkspaceQuality.CorpusText;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.SearchMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** How the workspace run names what ranks above a target it ranks lower. */
class WorkspaceQualityTest {

  private static final Definition TARGET = new Definition("toolz/itertoolz.py", Language.PYTHON,
      Kind.FUNCTION, "take", 10, 9, 12, true, null, List.of());

  private static Hit hit(String repo, String language, @Nullable String symbol) {
    return new Hit("a/b", 3, 4, 0, "x", 0.5, SearchMode.HYBRID, language, symbol, null, null,
        null).withRepo(repo);
  }

  @Test
  void theFirstKindThatAppliesToTheHitsAboveNamesTheLoss() {
    Hit own = hit("python", "python", "drop");
    Hit sibling = hit("more-itertools", "python", "more_itertools.Take");
    Hit sameLanguage = hit("more-itertools", "python", "islice_extended");
    Hit java = hit("jdk", "java", "Vector.firstElement");
    assertThat(WorkspaceQuality.kind(List.of(java, sameLanguage, sibling), "python", TARGET))
        .isZero();
    assertThat(WorkspaceQuality.kind(List.of(java, sameLanguage), "python", TARGET)).isEqualTo(1);
    assertThat(WorkspaceQuality.kind(List.of(own, java), "python", TARGET)).isEqualTo(2);
    assertThat(WorkspaceQuality.kind(List.of(own), "python", TARGET)).isEqualTo(3);
    // The target repository's own definition of the same name is not another repository's.
    assertThat(WorkspaceQuality.kind(List.of(hit("python", "python", "take")), "python", TARGET))
        .isEqualTo(3);
    assertThat(WorkspaceQuality.kind(List.of(hit("jdk", "java", null)), "python", TARGET))
        .isEqualTo(2);
  }

  @Test
  void namesCompareWithoutCaseUnderscoresOrQualifier() {
    assertThat(WorkspaceQuality.sameName("Scanner.nextLine", "next_line")).isTrue();
    assertThat(WorkspaceQuality.sameName("itertools::Itertools::interleave", "interleave"))
        .isTrue();
    assertThat(WorkspaceQuality.sameName("nextLine", "next")).isFalse();
  }

  private static List<Definition> extract(String path, String src) {
    try (DefinitionExtractor x = new DefinitionExtractor(Language.PYTHON)) {
      return x.extract(path, src.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static CorpusText corpus(String name, String path, String src) {
    return new CorpusText(name, extract(path, src), Map.of(path, src), Path.of(name));
  }

  private static NlQuery query(CorpusText c, String name) {
    Definition d = c.defs().stream().filter(x -> x.name().equals(name)).findFirst()
        .orElseThrow();
    return new NlQuery(DocSentence.first(d.language(), d.doc(), d.name()), d);
  }

  private static final String TOOLZ = "def take(n, seq):\n"
      + "    \"\"\"The first n elements of a sequence.\"\"\"\n    return seq[:n]\n\n"
      + "def tail(n, seq):\n    \"\"\"The last n elements of a sequence.\"\"\"\n"
      + "    return seq[-n:]\n\n"
      + "def interpose(el, seq):\n    \"\"\"Introduce element between each pair of elements"
      + " in seq.\"\"\"\n    return seq\n";

  /**
   * The single-corpus rules, applied across the workspace: a query whose sentence is another
   * corpus's documented function's first sentence (case aside), or stands word for word in
   * another corpus's source (here a comment), is not asked; the target's own corpus, which drew
   * it, is not "another".
   */
  @Test
  void aQuerySharedWithOrRestatedByAnotherCorpusIsNotAsked() {
    CorpusText toolz = corpus("python", "toolz/itertoolz.py", TOOLZ);
    CorpusText more = corpus("more-itertools", "more_itertools/recipes.py",
        "def take(n, iterable):\n    \"\"\"The FIRST n elements of a sequence.\"\"\"\n"
        + "    return list(islice(iterable, n))\n\n"
        + "def last(iterable):\n    # like toolz: the last n elements of a sequence, lazily\n"
        + "    return iterable[-1]\n");
    CorpusText go = corpus("go", "cmd/x.py", "def other():\n    \"\"\"Something else entirely"
        + " here.\"\"\"\n    return 1\n");
    List<CorpusText> all = List.of(toolz, more, go);
    NlQuery take = query(toolz, "take");
    NlQuery tail = query(toolz, "tail");
    NlQuery interpose = query(toolz, "interpose");
    assertThat(take.query()).isEqualTo("The first n elements of a sequence");
    assertThat(WorkspaceQuality.ambiguousAcross("python", List.of(take, tail, interpose), all))
        .containsExactlyInAnyOrder(take, tail);
    // Alone, toolz's own text (the answers' docs) makes none of them ambiguous.
    assertThat(WorkspaceQuality.ambiguousAcross("python", List.of(take, tail, interpose),
        List.of(toolz))).isEmpty();
    // A query of another corpus is checked against toolz in turn.
    NlQuery other = query(go, "other");
    assertThat(WorkspaceQuality.ambiguousAcross("go", List.of(other), all)).isEmpty();
  }

  @Test
  void theFirstHitOfALostTargetIsOwnRestatingSameNameOrOther() {
    CorpusText more = corpus("more-itertools", "more_itertools/recipes.py",
        "def take(n, iterable):\n    \"\"\"Return the first n elements of a sequence as a"
        + " list.\"\"\"\n    return list(islice(iterable, n))\n\n"
        + "def first(iterable):\n    \"\"\"Return the first item.\"\"\"\n    return 1\n");
    String path = "more_itertools/recipes.py";
    String text = more.sources().get(path);
    String q = "The first n elements of a sequence";
    Hit own = new Hit("toolz/x.py", 1, 3, 0, "x", 0.5, SearchMode.HYBRID, "python", "drop",
        null, null, null).withRepo("python");
    Hit restating = new Hit(path, 1, 3, 0, "x", 0.5, SearchMode.HYBRID, "python", "take_",
        null, null, null).withRepo("more-itertools");
    Hit sameName = new Hit(path, 5, 7, 0, "x", 0.5, SearchMode.HYBRID, "python", "Take",
        null, null, null).withRepo("more-itertools");
    Hit other = new Hit(path, 5, 7, 0, "x", 0.5, SearchMode.HYBRID, "python", "first",
        null, null, null).withRepo("more-itertools");
    assertThat(WorkspaceQuality.firstHit(own, "python", q, TARGET, more.defs(), text)).isZero();
    assertThat(WorkspaceQuality.firstHit(restating, "python", q, TARGET, more.defs(), text))
        .isEqualTo(1);
    // Without the file's text the overlapping definition's doc still says it.
    assertThat(WorkspaceQuality.firstHit(restating, "python", q, TARGET, more.defs(), null))
        .isEqualTo(1);
    assertThat(WorkspaceQuality.firstHit(sameName, "python", q, TARGET, more.defs(), text))
        .isEqualTo(2);
    assertThat(WorkspaceQuality.firstHit(other, "python", q, TARGET, more.defs(), text))
        .isEqualTo(3);
  }
}
