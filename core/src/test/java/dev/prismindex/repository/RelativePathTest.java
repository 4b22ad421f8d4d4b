package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.RelativePath.Problem;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one path rule: a table of inputs and what each entry point makes of them. */
class RelativePathTest {

  /** Input, normalise() result (or null when refused), its problem, normaliseScope() result. */
  static Stream<Arguments> table() {
    return Stream.of(
        row("src/a.java", "src/a.java", null, "src/a.java"),
        row("a", "a", null, "a"),
        row("./src", "src", null, "src"),
        row("src/", "src", null, "src"),
        row("./src/", "src", null, "src"),
        row("././src//./a/", "src/a", null, "src/a"),
        row("a//b", "a/b", null, "a/b"),
        row("..foo", "..foo", null, "..foo"),
        row("a/..b/c", "a/..b/c", null, "a/..b/c"),
        row("a/...", "a/...", null, "a/..."),
        row(" spaced name ", " spaced name ", null, " spaced name "),
        row("", null, Problem.EMPTY, null),
        row(".", null, Problem.ROOT, null),
        row("./", null, Problem.ROOT, null),
        row(".//.", null, Problem.ROOT, null),
        row("/", null, Problem.ABSOLUTE, "!"),
        row("/etc/passwd", null, Problem.ABSOLUTE, "!"),
        row("src\\a.java", null, Problem.BACKSLASH, "!"),
        row("\\", null, Problem.BACKSLASH, "!"),
        row("..", null, Problem.PARENT_SEGMENT, "!"),
        row("../x", null, Problem.PARENT_SEGMENT, "!"),
        row("a/../b", null, Problem.PARENT_SEGMENT, "!"),
        row("a/..", null, Problem.PARENT_SEGMENT, "!"),
        row("./..", null, Problem.PARENT_SEGMENT, "!"),
        row("a\u0000b", null, Problem.CONTROL_CHARACTER, "!"),
        row("a\nb", null, Problem.CONTROL_CHARACTER, "!"),
        row("a\tb", null, Problem.CONTROL_CHARACTER, "!"),
        row("a\u007fb", null, Problem.CONTROL_CHARACTER, "!"),
        row("/a\\..", null, Problem.ABSOLUTE, "!"),
        row("a\\..", null, Problem.BACKSLASH, "!"));
  }

  private static Arguments row(String input, String normalised, Problem problem, String scope) {
    return Arguments.of(input, normalised, problem, scope);
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @MethodSource("table")
  void normaliseFollowsTheTable(String input, String normalised, Problem problem, String scope) {
    assertThat(RelativePath.problem(input)).isEqualTo(problem);
    if (normalised != null) {
      assertThat(RelativePath.normalise(input)).isEqualTo(normalised);
      assertThat(RelativePath.isCanonical(normalised)).isTrue();
      assertThat(RelativePath.normalise(normalised)).as("idempotent").isEqualTo(normalised);
    } else {
      assertThatThrownBy(() -> RelativePath.normalise(input))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(RelativePath.isCanonical(input)).isFalse();
    }
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @MethodSource("table")
  void normaliseScopeFollowsTheTable(String input, String normalised, Problem problem,
      String scope) {
    if ("!".equals(scope)) {
      assertThatThrownBy(() -> RelativePath.normaliseScope(input))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("path scope ");
    } else {
      assertThat(RelativePath.normaliseScope(input)).isEqualTo(scope);
    }
  }

  @Test
  void nullIsEmptyForPathsAndTheWholeRepositoryForScopes() {
    assertThat(RelativePath.problem(null)).isEqualTo(Problem.EMPTY);
    assertThat(RelativePath.normaliseScope(null)).isNull();
    assertThat(RelativePath.isCanonical(null)).isFalse();
    assertThatThrownBy(() -> RelativePath.normalise(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("path is empty");
  }

  @Test
  void messagesNameTheProblemAndQuoteTheInputButNeverAControlCharacter() {
    assertThatThrownBy(() -> RelativePath.normalise("src\\a.java"))
        .hasMessage("path contains a backslash; the separator is '/': src\\a.java");
    assertThatThrownBy(() -> RelativePath.normaliseScope("src\\main"))
        .hasMessage("path scope contains a backslash; the separator is '/': src\\main");
    assertThatThrownBy(() -> RelativePath.normalise("/etc"))
        .hasMessage("path must be relative to the repository root, not absolute: /etc");
    assertThatThrownBy(() -> RelativePath.normalise("a/../b"))
        .hasMessage("path must stay inside the repository (no '..' segment): a/../b");
    assertThatThrownBy(() -> RelativePath.normalise("./"))
        .hasMessage("path names the repository root itself: ./");
    assertThatThrownBy(() -> RelativePath.normalise("a\nfake.java:1:1: forged"))
        .hasMessage("path contains a control character");
  }

  @Test
  void canonicalMeansNoDotOrEmptySegmentAndNoTrailingSlash() {
    assertThat(RelativePath.isCanonical("src/a.java")).isTrue();
    assertThat(RelativePath.isCanonical("..foo/bar")).isTrue();
    assertThat(RelativePath.isCanonical("./a")).isFalse();
    assertThat(RelativePath.isCanonical("a/")).isFalse();
    assertThat(RelativePath.isCanonical("a//b")).isFalse();
    assertThat(RelativePath.isCanonical("a/./b")).isFalse();
    assertThat(RelativePath.isCanonical("a/..")).isFalse();
    assertThat(RelativePath.isCanonical("/a")).isFalse();
    assertThat(RelativePath.isCanonical("a\\b")).isFalse();
    assertThat(RelativePath.isCanonical("")).isFalse();
  }

  @Test
  void scopesHoldWholeSegmentsOnly() {
    assertThat(RelativePath.isInScope(null, "any/path")).isTrue();
    assertThat(RelativePath.isInScope("src", "src")).isTrue();
    assertThat(RelativePath.isInScope("src", "src/a.java")).isTrue();
    assertThat(RelativePath.isInScope("src", "srcx/a.java")).isFalse();
    assertThat(RelativePath.isInScope("src", "src.java")).isFalse();
    assertThat(RelativePath.isInScope("src/main", "src")).isFalse();
  }
}
