package dev.prismindex.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link FileFilter}: normalisation, validation, and the path rule every engine applies. */
class FileFilterTest {

  private static FileFilter globs(String... globs) {
    return new FileFilter(List.of(), List.of(), List.of(globs));
  }

  @Test
  void scopesAreNormalisedDeduplicatedAndTheWholeRepositoryAbsorbsThem() {
    FileFilter f = new FileFilter(List.of("./src/", "src", "docs"), List.of(), List.of());
    assertThat(f.scopes()).containsExactly("src", "docs");
    assertThat(new FileFilter(List.of("src", "."), List.of(), List.of()).all()).isTrue();
    assertThat(FileFilter.scope(null)).isEqualTo(FileFilter.ALL);
    assertThatThrownBy(() -> FileFilter.scope("../elsewhere"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void severalScopesAreAUnion() {
    FileFilter f = new FileFilter(List.of("src/a", "docs/x.md"), List.of(), List.of());
    assertThat(f.test("src/a/One.java")).isTrue();
    assertThat(f.test("docs/x.md")).isTrue();
    assertThat(f.test("src/ab/One.java")).as("a sibling sharing the prefix").isFalse();
    assertThat(f.test("docs/y.md")).isFalse();
  }

  @Test
  void languagesAreTheNamesHitsReportAndUnknownOnesAreRefused() {
    FileFilter f = new FileFilter(List.of(), List.of("Java", "python"), List.of());
    assertThat(f.languages()).containsExactly("java", "python");
    assertThat(f.test("src/A.java")).isTrue();
    assertThat(f.test("tools/x.pyi")).isTrue();
    assertThat(f.test("README.md")).isFalse();
    assertThat(new FileFilter(List.of(), List.of("text"), List.of()).test("LICENSE")).isTrue();
    assertThatThrownBy(() -> new FileFilter(List.of(), List.of("jav"), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'jav'");
  }

  @Test
  void everyKnownLanguageListsItsPatterns() {
    assertThat(FileFilter.knownLanguages()).containsKeys("java", "python", "text", "make");
    assertThat(FileFilter.knownLanguages().get("java")).containsExactly("*.java");
    assertThat(FileFilter.knownLanguages().get("dockerfile")).containsExactly("Dockerfile");
    assertThat(FileFilter.knownLanguages().get("typescript")).contains("*.ts", "*.mts");
  }

  @Test
  void aGlobWithoutASlashMatchesANameAtAnyDepth() {
    FileFilter f = globs("*.java");
    assertThat(f.test("A.java")).isTrue();
    assertThat(f.test("src/main/A.java")).isTrue();
    assertThat(f.test("src/main/A.py")).isFalse();
  }

  @Test
  void aGlobWithASlashIsAnchoredAtTheRoot() {
    assertThat(globs("src/*.java").test("src/A.java")).isTrue();
    assertThat(globs("src/*.java").test("lib/src/A.java")).isFalse();
    assertThat(globs("src/*.java").test("src/sub/A.java")).as("* stops at /").isFalse();
    assertThat(globs("src/**/*.java").test("src/sub/deep/A.java")).isTrue();
    assertThat(globs("/docs").test("docs/a.md")).isTrue();
    assertThat(globs("/docs").test("x/docs/a.md")).isFalse();
  }

  @Test
  void aGlobMatchingADirectorySelectsEverythingBelowIt() {
    assertThat(globs("vendor/").test("vendor/lib/x.go")).isTrue();
    assertThat(globs("vendor/").test("a/vendor/x.go")).isTrue();
    assertThat(globs("vendor/").test("vendor")).as("a trailing / matches directories only")
        .isFalse();
    assertThat(globs("test").test("src/test/A.java")).isTrue();
    assertThat(globs("test").test("src/testing/A.java")).isFalse();
  }

  @Test
  void exclusionsAndTheLastMatchingGlobDecide() {
    FileFilter excludeOnly = globs("!*.min.js", "!vendor/");
    assertThat(excludeOnly.test("src/app.js")).as("no inclusion: the rest is selected").isTrue();
    assertThat(excludeOnly.test("src/app.min.js")).isFalse();
    assertThat(excludeOnly.test("vendor/a.js")).isFalse();

    FileFilter includeThenExclude = globs("*.java", "!src/gen/");
    assertThat(includeThenExclude.test("src/A.java")).isTrue();
    assertThat(includeThenExclude.test("src/gen/B.java")).isFalse();
    assertThat(includeThenExclude.test("README.md")).as("an inclusion selects only its files")
        .isFalse();

    FileFilter reInclude = globs("!vendor/", "vendor/keep.go");
    assertThat(reInclude.test("vendor/keep.go")).as("the later glob wins").isTrue();
    assertThat(reInclude.test("vendor/other.go")).isFalse();
    assertThat(reInclude.test("main.go")).as("an inclusion is given: only its files").isFalse();
  }

  @Test
  void scopesLanguagesAndGlobsAllHaveToSelectAFile() {
    FileFilter f = new FileFilter(List.of("src"), List.of("java"), List.of("!*Test.java"));
    assertThat(f.test("src/A.java")).isTrue();
    assertThat(f.test("src/ATest.java")).isFalse();
    assertThat(f.test("src/a.py")).isFalse();
    assertThat(f.test("lib/A.java")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  ", "!", "[abc", "#comment", "*.{ts,tsx}", "a\\"})
  void badGlobsAreRefusedNamingThem(String glob) {
    assertThatThrownBy(() -> globs(glob)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + glob + "'");
  }

  @Test
  void theMessageSaysWhyABraceGlobIsRefused() {
    assertThatThrownBy(() -> globs("*.{ts,tsx}")).hasMessageContaining("one glob per alternative");
    assertThatThrownBy(() -> globs("#x")).hasMessageContaining("comment");
  }
}
