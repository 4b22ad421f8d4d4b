package dev.prismindex.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How grep's flags of the exact modes ({@code --regex}, {@code -e}, {@code -F}, {@code -w},
 * {@code -i}, {@code -s}, {@code -S}) become one search: the mode, the pattern the engine gets, its
 * case rule, the limit.
 */
class ExactFlagsTest {

  private static final Path ROOT = repository();
  private static final Target TARGET = new Target(ROOT, ROOT.resolve(".prism-index"));
  private static final SearchSurface CLI = SearchSurface.commandLine(false);

  private static Path repository() {
    try {
      Path root = Files.createTempDirectory("prism-exact-flags-");
      root.toFile().deleteOnExit();
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, Object> args(Object... pairs) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], pairs[i + 1]);
    }
    return m;
  }

  private static SearchRequest validate(Map<String, ?> args) throws CliFailure {
    return SearchRequests.validate(RawSearchArgs.of(args), CLI, () -> TARGET);
  }

  private static String usage(Map<String, ?> args) {
    try {
      validate(args);
    } catch (CliFailure e) {
      assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
      return e.getMessage();
    }
    throw new AssertionError("valid: " + args);
  }

  @Test
  void regexModeMatchesCaseAndPrintsEveryMatch() throws CliFailure {
    SearchRequest r = validate(args("query", "fo+", "regex", true));
    assertThat(r.mode()).isEqualTo(SearchMode.REGEX);
    assertThat(r.query()).isEqualTo("fo+");
    assertThat(r.caseSensitive()).isTrue();
    assertThat(r.limit()).isEqualTo(SearchOpts.UNLIMITED);
    assertThat(validate(args("query", "fo+", "mode", "regex"))).isEqualTo(r);
  }

  @Test
  void theLiteralModeKeepsItsDefaultCaseAndAlsoPrintsEveryMatch() throws CliFailure {
    SearchRequest r = validate(args("query", "a.b", "fixedStrings", true));
    assertThat(r.mode()).isEqualTo(SearchMode.LITERAL);
    assertThat(r.query()).isEqualTo("a.b");
    assertThat(r.caseSensitive()).isFalse();
    assertThat(r.limit()).isEqualTo(SearchOpts.UNLIMITED);
    assertThat(validate(args("query", "a.b", "mode", "literal", "limit", 50_000)).limit())
        .as("the exact modes take any limit").isEqualTo(50_000);
    assertThat(usage(args("query", "x", "limit", 50_000))).contains("expected 1..10000");
  }

  @Test
  void severalPatternsAreAnyOfThemAsRipgrepJoinsThem() throws CliFailure {
    SearchRequest regex = validate(args("patterns", List.of("fo+", "-bar")));
    assertThat(regex.mode()).isEqualTo(SearchMode.REGEX);
    assertThat(regex.query()).isEqualTo("fo+|-bar");
    SearchRequest fixed = validate(args("patterns", List.of("a.b", "(x"), "fixedStrings", true));
    assertThat(fixed.mode()).as("several fixed strings: a regex of the quoted strings")
        .isEqualTo(SearchMode.REGEX);
    assertThat(fixed.query()).isEqualTo("a\\.b|\\(x");
    assertThat(fixed.caseSensitive()).as("still the literal mode's case rule").isFalse();
    SearchRequest one = validate(args("patterns", List.of("-x"), "mode", "literal"));
    assertThat(one.mode()).as("-e with --mode literal: a fixed string starting with '-'")
        .isEqualTo(SearchMode.LITERAL);
    assertThat(one.query()).isEqualTo("-x");
    SearchRequest empty = validate(args("patterns", List.of(""), "fixedStrings", true));
    assertThat(empty.query()).as("an empty pattern matches every line, as rg -e ''")
        .isEmpty();
    assertThat(empty.mode()).isEqualTo(SearchMode.REGEX);
  }

  @Test
  void wholeWordsQuoteAFixedString() throws CliFailure {
    SearchRequest r = validate(args("query", "a.b", "fixedStrings", true, "wordRegexp", true));
    assertThat(r.mode()).isEqualTo(SearchMode.REGEX);
    assertThat(r.query()).isEqualTo("a\\.b");
    assertThat(r.wholeWords()).isTrue();
    assertThat(validate(args("query", "fo+", "regex", true, "wordRegexp", true)).wholeWords())
        .isTrue();
  }

  @Test
  void caseFlags() throws CliFailure {
    assertThat(validate(args("query", "Foo", "regex", true, "ignoreCase", true)).caseSensitive())
        .isFalse();
    assertThat(validate(args("query", "foo", "regex", true, "smartCase", true)).caseSensitive())
        .isFalse();
    assertThat(validate(args("query", "Foo", "regex", true, "smartCase", true)).caseSensitive())
        .isTrue();
    assertThat(validate(args("query", "\\w+", "regex", true, "smartCase", true)).caseSensitive())
        .as("smart case needs a literal character").isTrue();
    assertThat(validate(args("query", "Foo", "fixedStrings", true, "smartCase", true))
        .caseSensitive()).isTrue();
    assertThat(validate(args("query", "foo", "fixedStrings", true, "caseSensitive", true))
        .caseSensitive()).isTrue();
    // The ranked modes ignore case: -i and -S are harmless there, -s is a usage error.
    SearchRequest ranked = validate(args("query", "Foo", "ignoreCase", true));
    assertThat(ranked.mode()).isNull();
    assertThat(ranked.caseSensitive()).isFalse();
    assertThat(validate(args("query", "Foo", "mode", "lexical", "smartCase", true)).mode())
        .isEqualTo(SearchMode.LEXICAL);
    assertThat(usage(args("query", "x", "mode", "lexical", "caseSensitive", true)))
        .startsWith("--case-sensitive applies to --mode literal and regex only");
    assertThat(usage(args("query", "x", "ignoreCase", true, "smartCase", true)))
        .isEqualTo("give one of --case-sensitive, -i and -S");
  }

  @Test
  void contradictionsAndBadPatternsAreUsageErrors() {
    assertThat(usage(args("query", "x", "fixedStrings", true, "regex", true)))
        .isEqualTo("-F (fixed strings) and --regex contradict each other");
    assertThat(usage(args("query", "x", "regex", true, "mode", "literal")))
        .isEqualTo("--regex asks for the regex mode, not literal");
    assertThat(usage(args("patterns", List.of("x"), "mode", "lexical")))
        .isEqualTo("-e asks for the regex mode, not lexical");
    assertThat(usage(args("query", "x", "patterns", List.of("y"))))
        .startsWith("both QUERY and -e give a pattern");
    assertThat(usage(args("query", "x", "wordRegexp", true)))
        .startsWith("-w applies to the exact modes");
    assertThat(usage(args("query", "a(", "regex", true)))
        .isEqualTo("invalid regex: regex parse error at offset 1 of \"a(\": unclosed group");
    assertThat(usage(args("query", "(?<=a)b", "regex", true)))
        .endsWith("look-around is not supported");
    assertThat(usage(args("patterns", List.of("x".repeat(3000), "y".repeat(3000)))))
        .startsWith("the query is 6001 bytes");
  }
}
