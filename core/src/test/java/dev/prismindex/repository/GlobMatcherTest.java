package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The one glob dialect (gitignore syntax) as documented in docs/cli.md, "Glob syntax"; the
 * engine's {@code GlobDialectTest} compares the same matcher with JGit's on a larger table.
 */
class GlobMatcherTest {

  private static boolean file(String pattern, String path) {
    return GlobMatcher.compile(pattern).matchesFile(path);
  }

  @ParameterizedTest(name = "{0} ~ {1} = {2}")
  @CsvSource(delimiter = '|', value = {
      "**|a|true",
      "**|a/b/c.txt|true",
      "**/*.java|Main.java|true",
      "**/*.java|src/x/Main.java|true",
      "**/*.java|src/x/Main.jav|false",
      "src/**|src/a/b|true",
      "src/**|srcx/a|false",
      "src/**/test/*.ts|src/test/a.ts|true",
      "src/**/test/*.ts|src/a/b/test/a.ts|true",
      "src/**/test/*.ts|src/a/b/test/x/a.ts|false",
      "*.txt|a.txt|true",
      "*.txt|dir/a.txt|true",
      "/*.txt|dir/a.txt|false",
      "src/*.txt|src/dir/a.txt|false",
      "*|.hidden|true",
      "a*b*c|aXbYbZc|true",
      "a*b*c|aXbYbZ|false",
      "?.md|a.md|true",
      "?.md|ab.md|false",
      "?|😀|true",
      "??|😀|false",
      "a?c|a/c|false",
      "[ab].txt|a.txt|true",
      "[ab].txt|c.txt|false",
      "[!ab].txt|c.txt|true",
      "[a-c]x|bx|true",
      "[[:digit:]]*|9lives|true",
      "\\[ab].txt|[ab].txt|true",
      "\\*|a|false",
      "a**b|aXYZb|true",
      "a**b|aX/Yb|false",
      "vendor/|vendor/a/b.go|true",
      "vendor/|lib/vendor/x.go|true",
      "vendor/|vendor|false",
      "test|src/test/A.java|true",
      "test|src/testing/A.java|false",
      "x/**/y|x/y|true",
      "/docs|docs/a.md|true",
      "/docs|x/docs/a.md|false",
      "*.TXT|a.txt|false",
  })
  void matchesAFileOrOneOfItsDirectories(String pattern, String path, boolean expected) {
    assertThat(file(pattern, path)).isEqualTo(expected);
  }

  @Test
  void theSignAndTheTrailingSlashAreRead() {
    GlobMatcher exclude = GlobMatcher.compile("!vendor/");
    assertThat(exclude.negated()).isTrue();
    assertThat(exclude.directoryOnly()).isTrue();
    assertThat(exclude.matches("vendor", true)).isTrue();
    assertThat(exclude.matches("vendor", false)).isFalse();
    assertThat(GlobMatcher.compile("\\!a").negated()).isFalse();
    assertThat(GlobMatcher.compile("\\!a").matches("!a", false)).isTrue();
    assertThat(GlobMatcher.compile("a.txt  ").matches("a.txt", false)).isTrue();
  }

  @Test
  void theLastMatchingGlobOfAListDecides() {
    List<GlobMatcher> excludeOnly = List.of(GlobMatcher.compile("!*.min.js"));
    assertThat(GlobMatcher.selects(excludeOnly, "a.js")).isTrue();
    assertThat(GlobMatcher.selects(excludeOnly, "x/a.min.js")).isFalse();
    List<GlobMatcher> reInclude =
        List.of(GlobMatcher.compile("!vendor/"), GlobMatcher.compile("vendor/keep.go"));
    assertThat(GlobMatcher.selects(reInclude, "vendor/keep.go")).isTrue();
    assertThat(GlobMatcher.selects(reInclude, "vendor/drop.go")).isFalse();
    assertThat(GlobMatcher.selects(reInclude, "src/a.go")).isFalse();
    assertThat(GlobMatcher.selects(List.of(), "anything")).isTrue();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''|empty glob ''",
      "!|empty glob '!'",
      "#x|invalid glob '#x': a line starting with # is a comment",
      "[abc|invalid glob '[abc': an unclosed [",
      "a\\|invalid glob 'a\\': a trailing backslash",
      "[z-a]|invalid glob '[z-a]': a reversed range z-a",
      "[[:foo:]]|invalid glob '[[:foo:]]': unknown character class [:foo:]",
      "/|invalid glob '/': no name",
  })
  void unparseableGlobsAreErrors(String pattern, String message) {
    assertThatThrownBy(() -> GlobMatcher.compile(pattern))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void manyDoubleStarsAndStarsStayPolynomial() {
    assertThat(GlobMatcher.compile("**/".repeat(30) + "z").matches("a/".repeat(60) + "y", false))
        .isFalse();
    assertThat(GlobMatcher.compile("*a*a*a*a*a*a*a*a*b").matches("a".repeat(200), false))
        .isFalse();
  }

  @Test
  void braceExpansionIsACartesianProductInOrder() {
    assertThat(BraceExpansion.expand("src/*.{ts,tsx}")).containsExactly("src/*.ts", "src/*.tsx");
    assertThat(BraceExpansion.expand("{a,b}/{x,y}.{1,2}")).containsExactly(
        "a/x.1", "a/x.2", "a/y.1", "a/y.2", "b/x.1", "b/x.2", "b/y.1", "b/y.2");
    assertThat(BraceExpansion.expand("plain")).containsExactly("plain");
    assertThat(BraceExpansion.expand("{only}")).containsExactly("only");
    assertThat(BraceExpansion.expand("x{a,}")).containsExactly("xa", "x");
  }

  @Test
  void braceExpansionErrorsAreExact() {
    assertThatThrownBy(() -> BraceExpansion.expand("a}b"))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("unbalanced brace expansion in pattern: a}b");
    assertThatThrownBy(() -> BraceExpansion.expand("{a,b"))
        .hasMessage("unbalanced brace expansion in pattern: {a,b");
    assertThatThrownBy(() -> BraceExpansion.expand("{a,{b,c}}"))
        .hasMessage("nested brace expansion is not supported in pattern: {a,{b,c}}");
    assertThatThrownBy(() -> BraceExpansion.expand("x{}y"))
        .hasMessage("empty brace expansion in pattern: x{}y");
    // 2^7 = 128 is allowed, 2^7 * 2 = 256 is not
    assertThat(BraceExpansion.expand("{a,b}".repeat(7))).hasSize(128);
    assertThatThrownBy(() -> BraceExpansion.expand("{a,b}".repeat(8)))
        .hasMessage("brace expansion exceeds 128 alternative limit");
    assertThatThrownBy(() -> BraceExpansion.expand("{" + "a,".repeat(128) + "a}"))
        .hasMessage("brace expansion exceeds 128 alternative limit");
    // the byte bound is per alternative (4 096 UTF-8 bytes)
    assertThat(BraceExpansion.expand("{a,b}" + "é".repeat(2_047))).hasSize(2);
    assertThatThrownBy(() -> BraceExpansion.expand("{a,b}" + "é".repeat(2_048)))
        .hasMessage("brace expansion exceeds 4096 byte limit");
    assertThat(BraceExpansion.expand("{x,y}", 2, 1)).isEqualTo(List.of("x", "y"));
  }
}
