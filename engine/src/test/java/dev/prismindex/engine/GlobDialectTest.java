package dev.prismindex.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.GlobMatcher;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.ignore.FastIgnoreRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Core's hand-written gitignore matcher ({@link GlobMatcher}) against JGit's
 * {@link FastIgnoreRule} (the rule the engine used before, and what git's {@code .gitignore} lines
 * mean to JGit): every pattern of the table is parsed by both, and every pattern is matched by
 * both against every path of the table (normalised: no empty name), as a file and as a
 * directory. Two differences are deliberate and tested as such.
 */
class GlobDialectTest {

  /** Patterns both accept. */
  private static final List<String> PATTERNS = List.of(
      // names at any depth
      "*.java", "*.txt", "Main.java", "test", "*", "?", "??", "a?c", "*Test*", "a*b*c", ".*",
      "*.[ch]", "**a", "a**b", "***", "x", "b",
      // anchored
      "/a", "/x/y", "src/*.java", "src/**", "src/**/test/*.ts", "a/b", "a/*", "*/b", "/**",
      "a/**/b", "**/a", "**/a/**", "**/**", "a/**/**/b", "**/**/a", "x/**/y", "a/**b", "a/b**",
      "**b/c", "a/***/b", "a//b", "**/b/**", "/**/b", "./a", "a/./b", ".", "..",
      // directories only
      "a/", "vendor/", "src/gen/", "**/", "*/", "a/b/", "a/**/", "/**/", "a/**/b/", "a//",
      // classes
      "[ab].txt", "[!ab].txt", "[^ab].txt", "[a-c]", "[a-c]*", "[[:alpha:]]", "[[:digit:]]x",
      "[[:upper:]]", "[[:lower:]]", "[[:xdigit:]]", "[[:punct:]]", "[[:space:]]", "[[:word:]]",
      "[[:alnum:][:space:]]", "[[:blank:]]", "[[:print:]]", "[[:graph:]]", "[[:cntrl:]]",
      "[]a]", "[!]a]", "[]]", "[[]", "[a-]b", "[-a]", "[a\\-c]", "[\\]]", "[\\!]", "[a-c-e]",
      "[*]", "[?]", "a[!b]c", "[A-Z]*", "[😀]", "é*", "[é]",
      // escapes, spaces, signs
      "\\*", "\\a", "a\\*b", "\\[a]", "\\!a", "\\#a", "*.txt ", "*.txt\\ ", "a \\ ", " a",
      "!a", "!!a", "!\\!a", "!*.min.js", "!vendor/", "!src/gen/", "]", "a]", "*.TXT");

  /** Paths every pattern is matched against. */
  private static final List<String> PATHS = List.of(
      "a", "b", "x", "ab", "abc", "aXbYbZc", "aXbYbZ", "a.txt", "a.txt ", "a  ", " a", "a.TXT",
      "d/a.txt", "a/b", "a/c", "a/b/c", "a/x/b", "a/x/y/b", "a/xb", "a/x/yb", "a/bc",
      "x/a", "x/a/b", "x/y", "x/y/a", "x/b/y", "xb/c", "xa", "x/ya", "src", "src/Main.java",
      "src/x/Main.java", "src/x/Main.jav", "srcx/a", "src/test/a.ts", "src/a/b/test/a.ts",
      "src/a/b/test/x/a.ts", "src/gen/G.java", "vendor", "vendor/keep.go", "lib/vendor/x.go",
      "test", "src/test", "FooTest.java", ".hidden", "a/.x", "*", "a*b", "[a]", "[ab].txt",
      "c.txt", "]", "-", "-b", "!", "!a", "#a", "?", "1x", "A", "f", "_", " ", "\t", "😀",
      "😀😀", "é", "éa", "É", "y.c", "x/y.c", "y.h", "a]", ".", "..", "Main.java", "a.min.js");

  @Test
  void everyPatternAnswersAsJGit() {
    List<String> differences = new ArrayList<>();
    for (String pattern : PATTERNS) {
      FastIgnoreRule rule = new FastIgnoreRule(pattern);
      assertThat(rule.isEmpty()).as("JGit parses %s", pattern).isFalse();
      GlobMatcher glob = GlobMatcher.compile(pattern);
      if (glob.negated() != rule.getNegation() || glob.directoryOnly() != rule.dirOnly()) {
        differences.add(pattern + ": sign or directory-only differs");
      }
      for (String path : PATHS) {
        if (pattern.contains("[:") && !path.chars().allMatch(c -> c < 0x80)) {
          continue; // classes by name: git's ASCII, see classNamesAreAscii
        }
        for (boolean directory : new boolean[] {false, true}) {
          boolean ours = glob.matches(path, directory);
          boolean jgit = rule.isMatch(path, directory, true);
          if (ours != jgit) {
            differences.add("[" + pattern + "] ~ [" + path + "] directory=" + directory
                + ": ours " + ours + ", JGit " + jgit);
          }
        }
      }
    }
    assertThat(differences).isEmpty();
  }

  /** What JGit cannot parse (an empty rule, which matches nothing) core rejects with a reason. */
  @ParameterizedTest
  @ValueSource(strings = {"[a", "a\\", "\\", "x[/]y", "[z-a]", "[[:alpha:]", "[]", "[!]", "[",
      "/", "!", "#a"})
  void whatJGitCannotParseIsAnError(String pattern) {
    assertThat(new FastIgnoreRule(pattern).isEmpty()).isTrue();
    assertThatThrownBy(() -> GlobMatcher.compile(pattern))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching("(invalid|empty) glob '.*");
  }

  /**
   * The one deliberate difference: an unknown class name, which JGit parses into a rule that
   * matches nothing, is an error in core (it is always a typo).
   */
  @Test
  void anUnknownClassNameIsAnError() {
    assertThat(new FastIgnoreRule("[[:foo:]]").isMatch("a", false, true)).isFalse();
    assertThatThrownBy(() -> GlobMatcher.compile("[[:foo:]]"))
        .hasMessageContaining("unknown character class [:foo:]");
  }

  /**
   * The other deliberate difference: a class by name ({@code [[:alpha:]]}) means what it means to
   * git (the C locale: ASCII), where JGit mixes Unicode ({@code alpha}, {@code upper}) and ASCII
   * ({@code alnum}) definitions.
   */
  @Test
  void classNamesAreAscii() {
    assertThat(new FastIgnoreRule("[[:alpha:]]").isMatch("é", false, true)).isTrue();
    assertThat(new FastIgnoreRule("[[:alnum:]]").isMatch("é", false, true)).isFalse();
    assertThat(GlobMatcher.compile("[[:alpha:]]").matches("é", false)).isFalse();
    assertThat(GlobMatcher.compile("[[:alnum:]]").matches("é", false)).isFalse();
    assertThat(GlobMatcher.compile("[!a]").matches("é", false)).isTrue();
  }

  /** The file rule: a glob matches a file when it matches its path or one of its directories. */
  @Test
  void aGlobMatchesAFileThroughItsDirectories() {
    List<String> files = List.of("vendor/a/b.go", "lib/vendor/x.go", "src/test/A.java",
        "src/testing/B.java", "docs/x.md", "a/b/c.txt");
    for (String pattern : List.of("vendor/", "test", "/docs", "a/b", "**/b/", "*.txt", "b")) {
      FastIgnoreRule rule = new FastIgnoreRule(pattern);
      GlobMatcher glob = GlobMatcher.compile(pattern);
      for (String file : files) {
        boolean jgit = rule.isMatch(file, false, true);
        for (int s = file.lastIndexOf('/'); s > 0; s = file.lastIndexOf('/', s - 1)) {
          jgit |= rule.isMatch(file.substring(0, s), true, true);
        }
        assertThat(glob.matchesFile(file)).as("%s ~ %s", pattern, file).isEqualTo(jgit);
      }
    }
  }
}
