package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link SearchOpts#files()}, context lines and {@link SearchResult#truncated()} in every mode: a
 * filter is applied inside the search (a filtered search returns its limit of hits even when the
 * unfiltered candidates hold none of them), hits carry the lines around them, and a result says
 * when the limit cut it.
 */
class FilteredSearchTest {

  private static final int PY_FILES = 60;
  private static final int JAVA_FILES = 3;

  @TempDir Path root;
  HybridIndex index;

  @BeforeEach
  void build() throws IOException {
    // Short Python files full of the word outrank every Java file for "needle", and there are
    // more of them than the candidate depth (50): filtering after the search would find no Java.
    for (int i = 0; i < PY_FILES; i++) {
      write(root, String.format("py/m%02d.py", i), "needle = \"needle needle\"  # needle\n");
    }
    for (int i = 0; i < JAVA_FILES; i++) {
      write(root, "java/N" + i + ".java", javaFile(i));
    }
    write(root, "docs/guide.md", "# Guide\n\nThe needle of the docs.\n");
    index = TestRepos.open(root, TestEmbedders.fake());
    index.refresh(RefreshOptions.INCREMENTAL);
  }

  @AfterEach
  void close() throws IOException {
    index.close();
  }

  private static String javaFile(int i) {
    return "package java;\n"
        + "\n"
        + "/** Holder number " + i + " with many other words to dilute it. */\n"
        + "public final class N" + i + " {\n"
        + "  private final int size = 1;\n"
        + "\n"
        + "  int lookup(int key) {\n"
        + "    return key + size; // the needle is here\n"
        + "  }\n"
        + "\n"
        + "  void other() {\n"
        + "    System.out.println(\"lots of other words, and more words, and words again\");\n"
        + "  }\n"
        + "}\n";
  }

  private SearchResult search(SearchMode mode, int limit, FileFilter files) throws IOException {
    return index.searchResult("needle", SearchOpts.builder().mode(mode).limit(limit).files(files)
        .build());
  }

  private static FileFilter languages(String... names) {
    return new FileFilter(List.of(), List.of(names), List.of());
  }

  private static FileFilter globs(String... globs) {
    return new FileFilter(List.of(), List.of(), List.of(globs));
  }

  @Test
  void withoutAFilterTheRankedCandidatesHoldNoJavaFile() throws IOException {
    assertThat(search(SearchMode.LEXICAL, 50, FileFilter.ALL).hits())
        .hasSize(50).noneSatisfy(h -> assertThat(h.path()).endsWith(".java"));
  }

  @ParameterizedTest
  @EnumSource(value = SearchMode.class, names = {"LEXICAL", "SEMANTIC", "HYBRID"})
  void aLanguageFilterIsAppliedBeforeTheLimit(SearchMode mode) throws IOException {
    SearchResult r = search(mode, 2, languages("java"));
    assertThat(r.hits()).hasSize(2).allSatisfy(h -> {
      assertThat(h.path()).startsWith("java/").endsWith(".java");
      assertThat(h.language()).isEqualTo("java");
    });
    assertThat(r.truncated()).as("a third Java file matches").isTrue();
    SearchResult all = search(mode, 50, languages("java"));
    assertThat(all.hits()).extracting(Hit::path).allSatisfy(p -> assertThat(p).endsWith(".java"))
        .containsAll(List.of("java/N0.java", "java/N1.java", "java/N2.java"));
    assertThat(all.truncated()).as("fewer Java chunks than the limit").isFalse();
  }

  @Test
  void aLanguageFilterAppliesToLiteralSearchBeforeTheLimit() throws IOException {
    // In path order docs/ and java/ come first: a cut before the filter would leave no Python.
    SearchResult r = search(SearchMode.LITERAL, 3, languages("python"));
    assertThat(r.hits()).extracting(Hit::path).containsExactly("py/m00.py", "py/m01.py",
        "py/m02.py");
    assertThat(r.truncated()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(value = SearchMode.class, names = {"LEXICAL", "SEMANTIC", "HYBRID", "LITERAL"})
  void globsSelectAndExcludeInsideTheSearch(SearchMode mode) throws IOException {
    assertThat(search(mode, 2, globs("*.java")).hits()).hasSize(2)
        .allSatisfy(h -> assertThat(h.path()).endsWith(".java"));
    List<Hit> noPython = search(mode, 20, globs("!py/")).hits();
    assertThat(noPython).extracting(Hit::path).contains("docs/guide.md", "java/N0.java")
        .noneSatisfy(p -> assertThat(p).startsWith("py/"));
    assertThat(search(mode, 5, globs("*.rs")).hits()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(value = SearchMode.class, names = {"LEXICAL", "SEMANTIC", "HYBRID", "LITERAL"})
  void severalScopesAreAUnion(SearchMode mode) throws IOException {
    FileFilter scopes = new FileFilter(List.of("java/N1.java", "docs"), List.of(), List.of());
    assertThat(search(mode, 20, scopes).hits()).extracting(Hit::path)
        .containsOnly("java/N1.java", "docs/guide.md")
        .contains("java/N1.java", "docs/guide.md");
  }

  @ParameterizedTest
  @EnumSource(value = SearchMode.class, names = {"LEXICAL", "SEMANTIC", "HYBRID", "LITERAL"})
  void hitsCarryTheLinesAroundThemWhenAsked(SearchMode mode) throws IOException {
    List<Hit> hits = index.search("needle", SearchOpts.builder().mode(mode).limit(5)
        .files(languages("java")).context(2, 1).build());
    assertThat(hits).isNotEmpty();
    for (Hit h : hits) {
      List<String> lines = Files.readAllLines(root.resolve(h.path()));
      Hit.Context c = h.context();
      assertThat(c).as("context of %s", h).isNotNull();
      assertThat(c.before()).isEqualTo(lines.subList(Math.max(0, h.line() - 3), h.line() - 1));
      assertThat(c.text()).as("the line itself, indentation kept")
          .isEqualTo(lines.get(h.line() - 1));
      assertThat(c.after()).isEqualTo(lines.subList(h.line(), Math.min(lines.size(),
          h.line() + 1)));
    }
    assertThat(index.search("needle", SearchOpts.builder().mode(mode).limit(5).build()))
        .allSatisfy(h -> assertThat(h.context()).as("none asked").isNull());
  }

  @Test
  void literalContextStopsAtTheEdgesOfTheFile() throws IOException {
    Hit h = index.search("needle", SearchOpts.builder().mode(SearchMode.LITERAL).limit(1)
        .files(globs("py/m00.py")).context(3, 3).build()).get(0);
    assertThat(h.context()).isEqualTo(new Hit.Context(List.of(),
        "needle = \"needle needle\"  # needle", List.of()));
    Hit doc = index.search("needle", SearchOpts.builder().mode(SearchMode.LITERAL).limit(1)
        .files(globs("docs/")).context(5, 5).build()).get(0);
    assertThat(doc.line()).isEqualTo(3);
    assertThat(doc.context().before()).containsExactly("# Guide", "");
    assertThat(doc.context().after()).isEmpty();
  }

  @Test
  void literalContextIsCompleteForTheLastMatchBeforeTheCap() throws IOException {
    write(root, "many.txt", "a needle\nb\nc needle\nd\ne\nf needle\n");
    index.refresh(RefreshOptions.INCREMENTAL);
    SearchResult r = index.searchResult("needle", SearchOpts.builder().mode(SearchMode.LITERAL)
        .limit(2).files(globs("many.txt")).context(1, 2).build());
    assertThat(r.truncated()).isTrue();
    assertThat(r.hits()).extracting(Hit::line).containsExactly(1, 3);
    assertThat(r.hits().get(1).context()).isEqualTo(new Hit.Context(List.of("b"), "c needle",
        List.of("d", "e")));
  }

  @Test
  void contextLinesAreBoundedAndKeepNoTrailingSpace() throws IOException {
    write(root, "long.txt", "x".repeat(1000) + "\nthe needle   \n" + "y".repeat(10) + "\t \n");
    index.refresh(RefreshOptions.INCREMENTAL);
    Hit h = index.search("needle", SearchOpts.builder().mode(SearchMode.LITERAL).limit(1)
        .files(globs("long.txt")).context(1, 1).build()).get(0);
    assertThat(h.context().before()).containsExactly("x".repeat(Hit.MAX_SNIPPET_CHARS));
    assertThat(h.context().text()).isEqualTo("the needle");
    assertThat(h.context().after()).containsExactly("y".repeat(10));
  }

  @Test
  void literalTruncationIsReportedOnlyWhenAFurtherMatchExists() throws IOException {
    assertThat(search(SearchMode.LITERAL, PY_FILES - 1, languages("python")).truncated())
        .isTrue();
    SearchResult exact = search(SearchMode.LITERAL, PY_FILES, languages("python"));
    assertThat(exact.hits()).hasSize(PY_FILES);
    assertThat(exact.truncated()).isFalse();
  }
}
