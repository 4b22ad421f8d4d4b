package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a corpus copy keeps of its answers' docs: the seeded draw and the blanking. */
class AnswerDocTest {

  @TempDir Path dir;

  private static Definition named(Language language, String src, String name) {
    try (DefinitionExtractor x = new DefinitionExtractor(language)) {
      return x.extract("src/f", src.getBytes(StandardCharsets.UTF_8)).stream()
          .filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }
  }

  /** The file with the first paragraph of {@code name}'s doc blanked (--rest-of-doc). */
  private static String restOfDoc(Language language, String src, String name) {
    Definition d = named(language, src, name);
    byte[] data = src.getBytes(StandardCharsets.UTF_8);
    AnswerDoc.blankFirstParagraph(data, d.docSpans());
    return new String(data, StandardCharsets.UTF_8);
  }

  @Test
  void restOfDocBlanksTheFirstParagraphAndKeepsTheMarkersAndTheRest() {
    String java = "class A {\n  /**\n   * Returns the sum of the\n   * two values.\n   * <p>Overflows"
        + " silently.\n   * @param a the first\n   */\n  int add(int a, int b) {\n    return a + b;"
        + "\n  }\n\n  /** Negates the value. */\n  int neg(int a) {\n    return -a;\n  }\n}\n";
    String add = restOfDoc(Language.JAVA, java, "add");
    assertThat(add).doesNotContain("Returns the sum").doesNotContain("two values")
        .contains("   * <p>Overflows silently.\n   * @param a the first\n   */\n")
        .contains("  /**\n   *").contains("/** Negates the value. */");
    assertThat(add.lines().count()).isEqualTo(java.lines().count());
    assertThat(restOfDoc(Language.JAVA, java, "neg")).contains("  /**                    */\n");

    String go = "package p\n\n// Sum adds the values\n// of a slice.\n//\n// It returns 0 for none.\n"
        + "func Sum(v []int) int {\n\treturn 0\n}\n";
    assertThat(restOfDoc(Language.GO, go, "Sum"))
        .doesNotContain("adds the").doesNotContain("of a slice")
        .contains("  \n//\n// It returns 0 for none.\n"); // a blanked line keeps its length

    String python = "def total(v):\n    \"\"\"Add the values.\n\n    Args:\n        v: numbers\n"
        + "    \"\"\"\n    return sum(v)\n";
    assertThat(restOfDoc(Language.PYTHON, python, "total"))
        .doesNotContain("Add the values").contains("    \"\"\"               \n\n    Args:\n")
        .contains("    \"\"\"\n    return sum(v)");

    String rust = "/// Spawns a task\n/// on the runtime.\n///\n/// # Examples\n/// spawn(f);\n"
        + "pub fn spawn() {}\n";
    assertThat(restOfDoc(Language.RUST, rust, "spawn"))
        .doesNotContain("Spawns").doesNotContain("runtime")
        .contains("  \n///\n/// # Examples\n/// spawn(f);\n");
  }

  @Test
  void seededSharesOfTheTargetsKeepTheirDocsOrTheRestOfThem() {
    assertThat(AnswerDoc.draw(1000, 0, 0, 38)).containsOnly(AnswerDoc.BLANKED);
    assertThat(AnswerDoc.draw(1000, 1, 0, 38)).containsOnly(AnswerDoc.KEPT);
    assertThat(AnswerDoc.draw(1000, 0, 1, 38)).containsOnly(AnswerDoc.REST);
    List<AnswerDoc> fifths = AnswerDoc.draw(1000, 0.2, 0.2, 38);
    assertThat(fifths.stream().filter(d -> d == AnswerDoc.KEPT).count()).isBetween(150L, 250L);
    assertThat(fifths.stream().filter(d -> d == AnswerDoc.REST).count()).isBetween(150L, 250L);
    assertThat(fifths).isEqualTo(AnswerDoc.draw(1000, 0.2, 0.2, 38))
        .isNotEqualTo(AnswerDoc.draw(1000, 0.2, 0.2, 39));
    // The rest's share takes only from the blanked: the same answers keep their whole doc.
    List<AnswerDoc> kept = AnswerDoc.draw(1000, 0.2, 0, 38);
    for (int i = 0; i < 1000; i++) {
      assertThat(fifths.get(i) == AnswerDoc.KEPT).isEqualTo(kept.get(i) == AnswerDoc.KEPT);
    }
  }

  @Test
  void windowsLineEndsKeepTheirCarriageReturns() {
    String java = "class A {\r\n  /**\r\n   * Returns the sum.\r\n   *\r\n   * Overflows silently.\r\n"
        + "   */\r\n  int add(int a) {\r\n    return a;\r\n  }\r\n}\r\n";
    String add = restOfDoc(Language.JAVA, java, "add");
    assertThat(add).doesNotContain("Returns the sum").contains("   *\r\n   * Overflows silently.\r\n")
        .hasSameSizeAs(java);
    assertThat(add.lines().count()).isEqualTo(java.lines().count());
  }

  @Test
  void oneFileHoldsAnswersOfEachKindAndIsWrittenOnce() throws Exception {
    String java = "class A {\n  /** Adds one to the value. */\n  int inc(int a) {\n    return a + 1;\n"
        + "  }\n\n  /**\n   * Doubles the value.\n   *\n   * @param a the value\n   */\n"
        + "  int twice(int a) {\n    return 2 * a;\n  }\n\n  /** Negates the value. */\n"
        + "  int neg(int a) {\n    return -a;\n  }\n}\n";
    Files.createDirectories(dir.resolve("src"));
    Files.writeString(dir.resolve("src/f"), java);
    List<NlQuery> answers = List.of(new NlQuery("q1", named(Language.JAVA, java, "inc")),
        new NlQuery("q2", named(Language.JAVA, java, "twice")),
        new NlQuery("q3", named(Language.JAVA, java, "neg")));
    AnswerDoc.apply(dir, answers, List.of(AnswerDoc.BLANKED, AnswerDoc.REST, AnswerDoc.KEPT));
    String after = Files.readString(dir.resolve("src/f"));
    assertThat(after).doesNotContain("Adds one").doesNotContain("/** Adds")
        .doesNotContain("Doubles").contains("   * @param a the value\n   */\n")
        .contains("  /** Negates the value. */\n").hasSameSizeAs(java);
  }
}
