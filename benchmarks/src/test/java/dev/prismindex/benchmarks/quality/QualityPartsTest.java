package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.benchmarks.quality.QuerySets.ExactQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NavQuery;
import dev.prismindex.benchmarks.quality.QuerySets.NlSet;
import dev.prismindex.benchmarks.quality.Ranking.GrepBaseline;
import dev.prismindex.benchmarks.quality.Ranking.Metrics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of the quality benchmark that decide what counts: queries, answers, metrics. */
class QualityPartsTest {

  @TempDir Path dir;

  @Test
  void firstSentenceFollowsJavadoc() {
    assertThat(java("/**\n * Returns the {@code Map} of <i>all</i> keys. More."
        + "\n * @param x ignored\n */")).isEqualTo("Returns the Map of all keys");
    assertThat(java(
        "/** Uses {@link #getInstance(Locale, Type, Style)} and {@link Foo#bar label text}. */"))
        .isEqualTo("Uses getInstance and label text");
    assertThat(java("/** e.g. a &lt;b&gt; c */")).isEqualTo("e.g");
    assertThat(java("/** {@inheritDoc} */")).isNull();
    assertThat(java("/**\n * @return x\n */")).isNull();
    assertThat(DocSentence.words("Returns the 2nd Map")).isEqualTo(4);
  }

  private static String java(String doc) {
    return DocSentence.first(Language.JAVA, doc, "m");
  }

  @Test
  void identifierPartsSplitCaseAcronymsDigitsAndUnderscores() {
    assertThat(QuerySets.identifierParts("parseDurationString"))
        .containsExactly("parse", "duration", "string");
    assertThat(QuerySets.identifierParts("XMLHttpRequest")).containsExactly("xml", "http",
        "request");
    assertThat(QuerySets.identifierParts("MAX_VALUE2")).containsExactly("max", "value", "2");
  }

  @Test
  void selectorsTakeDirectFilesOrSubtrees() {
    List<String> sel = List.of("m/java/util/*", "m/java/time/**");
    assertThat(CorpusFiles.selected("m/java/util/List.java", sel)).isTrue();
    assertThat(CorpusFiles.selected("m/java/util/concurrent/Future.java", sel)).isFalse();
    assertThat(CorpusFiles.selected("m/java/time/chrono/Era.java", sel)).isTrue();
    assertThat(CorpusFiles.selected("m/java/text/Format.java", sel)).isFalse();
  }

  @Test
  void definitionsAndBlankingKeepLineNumbers() throws Exception {
    String src = "package p;\n\nclass Clock {\n  /**\n   * Reads the current wall clock time"
        + " in millis.\n   */\n  long readWallClock() {\n    return 1;\n  }\n\n"
        + "  /** Reads the current wall clock time in millis. */\n  long readAgain() { return 2; }\n"
        + "\n  /** Short. */\n  void tick() {}\n}\n";
    Files.writeString(dir.resolve("Clock.java"), src);
    List<Definition> defs = DefinitionExtractor.definitions(dir, List.of("Clock.java"),
        Language.JAVA);
    assertThat(defs).extracting(Definition::name)
        .containsExactly("Clock", "readWallClock", "readAgain", "tick");
    Definition read = defs.get(1);
    assertThat(read.startLine()).isEqualTo(7);
    assertThat(read.endLine()).isEqualTo(9);
    assertThat(read.isFunctionWithBody()).isTrue();
    assertThat(read.nameLine()).isEqualTo(7);

    // Two methods share the sentence (both dropped) and one is too short.
    NlSet nl = QuerySets.naturalLanguage(defs, Map.of("Clock.java", src), 10, 1);
    assertThat(nl.documented()).isEqualTo(3);
    assertThat(nl.duplicate()).isEqualTo(2);
    assertThat(nl.tooShort()).isEqualTo(1);
    assertThat(nl.queries()).isEmpty();

    byte[] data = src.getBytes(StandardCharsets.UTF_8);
    CorpusFiles.blank(data, read.docSpans().get(0).start(), read.docSpans().get(0).end());
    String blanked = new String(data, StandardCharsets.UTF_8);
    assertThat(blanked.lines().count()).isEqualTo(src.lines().count());
    assertThat(blanked).doesNotContain("Reads the current wall clock time in millis.\n   */");
    assertThat(blanked.lines().toList().get(6)).isEqualTo("  long readWallClock() {");

    List<NavQuery> nav = QuerySets.navigation(defs, 10, 1);
    assertThat(nav).extracting(NavQuery::phrase)
        .containsExactlyInAnyOrder("read wall clock", "read again");
  }

  @Test
  void aSentenceThatStillStandsElsewhereIsNotDrawn() throws Exception {
    // An overload's doc says the target's sentence within a longer one (markup apart), a
    // TypeScript overload signature a blank line above keeps its doc, a second file copies a
    // doc: each of those queries would find its sentence word for word outside its answer.
    String java = "class Bools {\n"
        + "  /** Converts a String to a boolean value. */\n"
        + "  static boolean toBoolean(String s) { return s != null; }\n\n"
        + "  /**\n   * Converts a {@code String} to a boolean\n   * value, throwing an exception"
        + " when it is neither.\n   */\n"
        + "  static boolean toBoolean(String s, boolean strict) { return strict; }\n\n"
        + "  /** Counts the words of the given text. */\n"
        + "  static int count(String t) {\n    // counts the words of the given text\n"
        + "    return t.length();\n  }\n\n"
        + "  /** Parses the header line of a request. */\n"
        + "  static int header(String t) { return 0; }\n}\n";
    String copy = "class Copy {\n  /** Parses the header line of a request, or fails. */\n"
        + "  abstract int header(String t);\n}\n";
    Files.writeString(dir.resolve("Bools.java"), java);
    Files.writeString(dir.resolve("Copy.java"), copy);
    List<Definition> defs = DefinitionExtractor.definitions(dir, List.of("Bools.java",
        "Copy.java"), Language.JAVA);
    NlSet nl = QuerySets.naturalLanguage(defs, Map.of("Bools.java", java, "Copy.java", copy),
        10, 1);
    assertThat(nl.duplicate()).isZero();
    assertThat(nl.restated()).isEqualTo(2);
    assertThat(nl.queries()).extracting(q -> q.target().name() + ": " + q.query())
        .containsExactlyInAnyOrder(
            "toBoolean: Converts a String to a boolean value, throwing an exception when it is"
                + " neither",
            "count: Counts the words of the given text");

    String ts = "export class B {\n  /** Creates a function type from the parameters */\n"
        + "  public F(a: string): string\n\n  /** Creates a function type from the parameters"
        + " */\n  public F(a: any): any {\n    return a\n  }\n}\n";
    Files.writeString(dir.resolve("b.ts"), ts);
    List<Definition> tsDefs = DefinitionExtractor.definitions(dir, List.of("b.ts"),
        Language.TYPESCRIPT);
    NlSet tsSet = QuerySets.naturalLanguage(tsDefs, Map.of("b.ts", ts), 10, 1);
    assertThat(tsSet.restated()).isEqualTo(1);
    assertThat(tsSet.queries()).isEmpty();
  }

  @Test
  void markupIsReducedWithTheLinesKept() {
    String s = DocSentence.reduceMarkup("a {@link Foo#bar\n * the bar} <a\nhref=x>b</a> &lt;"
        + " {@code X}\nend");
    assertThat(s.lines().count()).isEqualTo(4);
    assertThat(s.replaceAll("[\\s*]+", " ").strip()).isEqualTo("a the bar b < X end");
  }

  @Test
  void metricsCountTheFirstCorrectRankWithinTen() {
    Metrics m = Metrics.of(List.of(1, 2, 0, 11, 5));
    assertThat(m.queries()).isEqualTo(5);
    assertThat(m.mrr()).isEqualTo((1 + 0.5 + 0.2) / 5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(m.r1()).isEqualTo(0.2);
    assertThat(m.r5()).isEqualTo(0.6);
    assertThat(m.r10()).isEqualTo(0.6);
  }

  @Test
  void grepBaselineRanksFilesByMatchingLines() {
    Map<String, String> texts = Map.of("a.java", "foo bar\nfoo\nbaz", "b.java", "FOO foo foo\nx",
        "c.java", "nothing");
    GrepBaseline g = new GrepBaseline(List.of("a.java", "b.java", "c.java"), texts);
    assertThat(g.rank("foo")).containsExactly("a.java", "b.java");
    assertThat(g.rank("foo baz")).containsExactly("a.java", "b.java");
    assertThat(g.rank("x")).isEmpty(); // one-character words are not searched
    assertThat(GrepBaseline.linesContaining("ab\nab ab\n", "ab")).isEqualTo(2);
  }

  @Test
  void exactnessLiteralsHaveAFullScanTruth() {
    Map<String, List<String>> lines = Map.of("a.java", List.of("int count = a[i] + 1;",
        "String s = \"héllo wörld\";"), "b.java", List.of("countAll(x);"));
    List<ExactQuery> q = QuerySets.exactness(lines, 2, 3);
    assertThat(q).extracting(ExactQuery::kind).contains("identifier", "string literal",
        "regex metacharacters", "non-ASCII", "no-hit");
    for (ExactQuery e : q) {
      List<String> truth = QuerySets.truth(e.literal(), lines);
      assertThat(truth.isEmpty()).as(e.toString()).isEqualTo(e.kind().equals("no-hit"));
    }
    assertThat(QuerySets.truth("count", lines)).containsExactly("a.java", "b.java");
  }

  private static final String SHAPES = "package shapes;\n\npublic final class Shapes {\n"
      + "  /** Computes the area of a circle from its radius. */\n"
      + "  public static double circleArea(double r) {\n    return Math.PI * r * r;\n  }\n\n"
      + "  /** Computes the perimeter of a square from its side length. */\n"
      + "  public static double squarePerimeter(double s) {\n    return 4 * s;\n  }\n\n"
      + "  /** Converts an angle in degrees into radians for the trigonometry. */\n"
      + "  public static double radians(double degrees) {\n    return degrees * Math.PI / 180;"
      + "\n  }\n}\n";

  /**
   * {@code --documented} keeps the answers' doc comments in the indexed copy (by default they are
   * blanked), and a prepared work directory is reused only in the mode it was prepared in.
   */
  @Test
  void documentedKeepsTheAnswersDocsAndReuseKeepsItsMode() throws Exception {
    Path repo = dir.resolve("repo/src/main/java/shapes");
    Files.createDirectories(repo);
    Files.writeString(repo.resolve("Shapes.java"), SHAPES);
    String[] base = {"--repo", "shapes=" + dir.resolve("repo"), "--no-semantic", "--nl", "3",
        "--nav", "1", "--exact", "1", "--out", dir.resolve("out.md").toString()};
    Path indexed = dir.resolve("documented/shapes/src/main/java/shapes/Shapes.java");
    RetrievalQuality.main(with(base, "--work", dir.resolve("documented").toString(),
        "--documented"));
    assertThat(Files.readString(indexed)).isEqualTo(SHAPES);
    assertThat(Files.readString(dir.resolve("out.md"))).contains("doc comment kept");
    assertThatThrownBy(() -> RetrievalQuality.main(with(base, "--work",
        dir.resolve("documented").toString(), "--reuse")))
        .hasMessageContaining("was prepared with --documented");

    Path blanked = dir.resolve("blanked/shapes/src/main/java/shapes/Shapes.java");
    RetrievalQuality.main(with(base, "--work", dir.resolve("blanked").toString()));
    assertThat(Files.readString(blanked)).doesNotContain("Computes the area")
        .contains("circleArea").hasSameSizeAs(SHAPES);
    assertThatThrownBy(() -> RetrievalQuality.main(with(base, "--work",
        dir.resolve("blanked").toString(), "--reuse", "--documented")))
        .hasMessageContaining("with the answers' doc comments blanked");
    assertThatThrownBy(() -> RetrievalQuality.main(with(base, "--documented", "--workspace")))
        .hasMessageContaining("not with --workspace");
  }

  /**
   * {@code --rest-of-doc} blanks only the first paragraph of each answer's doc (its sentence) and
   * keeps the rest; a work directory prepared so is reused only so; it takes neither
   * {@code --documented} nor a workspace.
   */
  @Test
  void restOfDocBlanksTheAnswersFirstParagraphsOnly() throws Exception {
    Path repo = dir.resolve("repo/src/main/java/shapes");
    Files.createDirectories(repo);
    String shapes = SHAPES.replace("radius. */", "radius.\n   *\n   * <p>Negative radii too.\n   */");
    Files.writeString(repo.resolve("Shapes.java"), shapes);
    String[] base = {"--repo", "shapes=" + dir.resolve("repo"), "--no-semantic", "--nl", "3",
        "--nav", "1", "--exact", "1", "--out", dir.resolve("out.md").toString()};
    RetrievalQuality.main(with(base, "--work", dir.resolve("rest").toString(), "--rest-of-doc"));
    String indexed = Files.readString(dir.resolve("rest/shapes/src/main/java/shapes/Shapes.java"));
    assertThat(indexed).doesNotContain("Computes the area").doesNotContain("Converts an angle")
        .contains("   * <p>Negative radii too.\n   */").contains("  /**").hasSameSizeAs(shapes);
    assertThat(Files.readString(dir.resolve("out.md"))).contains("the rest of it kept");
    assertThatThrownBy(() -> RetrievalQuality.main(with(base, "--work",
        dir.resolve("rest").toString(), "--reuse")))
        .hasMessageContaining("was prepared with --rest-of-doc");
    assertThatThrownBy(() -> RetrievalQuality.main(with(base, "--rest-of-doc", "--documented")))
        .hasMessageContaining("give one");
    assertThatThrownBy(() -> RetrievalQuality.main(with(base, "--rest-of-doc", "--combined")))
        .hasMessageContaining("--rest-of-doc measures each corpus alone");
  }

  private static String[] with(String[] base, String... more) {
    String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test
  void badArgumentsAreRefusedWithAMessage() {
    assertThatThrownBy(() -> RetrievalQuality.main(new String[] {"--nl", "0"}))
        .hasMessageContaining("--nl must be at least 1");
    assertThatThrownBy(() -> RetrievalQuality.main(new String[] {"--bogus"}))
        .hasMessageContaining("unknown option --bogus");
    assertThatThrownBy(() -> RetrievalQuality.main(new String[] {}))
        .hasMessageContaining("--src-zip");
    assertThatThrownBy(() -> RetrievalQuality.main(new String[] {"--repo", "x"}))
        .hasMessageContaining("NAME[:LANGUAGE]=DIR");
    assertThatThrownBy(() -> RetrievalQuality.main(
        new String[] {"--src-zip", dir.resolve("missing.zip").toString()}))
        .hasMessageContaining("no such src.zip");
  }
}
