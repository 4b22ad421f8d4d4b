package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class GlobMatcherTest {

  @ParameterizedTest(name = "{0} ~ {1} = {2}")
  @CsvSource(delimiter = '|', value = {
      "**|a|true",
      "**|a/b/c.txt|true",
      "**/*.java|Main.java|true",
      "**/*.java|src/x/Main.java|true",
      "**/*.java|src/x/Main.jav|false",
      "src/**|src|true",
      "src/**|src/a/b|true",
      "src/**|srcx/a|false",
      "src/**/test/*.ts|src/test/a.ts|true",
      "src/**/test/*.ts|src/a/b/test/a.ts|true",
      "src/**/test/*.ts|src/a/b/test/x/a.ts|false",
      "*.txt|a.txt|true",
      "*.txt|dir/a.txt|false",
      "*|.hidden|true",
      "a*b*c|abc|true",
      "a*b*c|aXbYbZc|true",
      "a*b*c|aXbYbZ|false",
      "?.md|a.md|true",
      "?.md|ab.md|false",
      "?|😀|false",
      "??|😀|true",
      "a?c|a/c|false",
      "[ab].txt|[ab].txt|true",
      "[ab].txt|a.txt|false",
      "a\\b|a/b|true",
      "a/b|a\\b|true",
      "/a/b/|a/b|true",
      "a//b|a/b|false",
      "a**b|aXYZb|true",
      "a**b|aX/Yb|false",
      "**/**|x|true",
      "*|a/b|false",
      "**/a|a|true",
      "x/**/y|x/y|true",
  })
  void matches(String pattern, String path, boolean expected) {
    assertThat(GlobMatcher.matches(pattern, path)).isEqualTo(expected);
  }

  @Test
  void emptyPatternMatchesOnlyTheEmptyPath() {
    assertThat(GlobMatcher.matches("", "")).isTrue();
    assertThat(GlobMatcher.matches("", "a")).isFalse();
    assertThat(GlobMatcher.matches("**", "")).isTrue();
    assertThat(GlobMatcher.matches("*", "")).isFalse();
  }

  @Test
  void manyDoubleStarsStayPolynomial() {
    String pattern = "**/".repeat(30) + "z";
    String path = "a/".repeat(60) + "y";
    assertThat(GlobMatcher.matches(pattern, path)).isFalse();
    assertThat(GlobMatcher.matchSegment("*a*a*a*a*a*a*a*a*b", "a".repeat(200))).isFalse();
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
