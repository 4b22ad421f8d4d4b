package dev.prismindex.internal.regex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RegexMatcherTest {

  private static RegexMatcher matcher(String pattern, boolean insensitive) {
    return new RegexMatcher(Program.compile(RegexParser.parse(pattern, insensitive), 0));
  }

  /** Every match of {@code line} by {@code find} from each end, as {@code "start-end"}. */
  private static List<String> all(RegexMatcher m, String line) {
    List<String> out = new ArrayList<>();
    int from = 0;
    while (from <= line.length() && m.find(line, from)) {
      out.add(m.start() + "-" + m.end());
      from = m.end() > m.start() ? m.end() : m.end() + 1;
    }
    return out;
  }

  @Test
  void backtrackerAndPikeVmAgreeOnRandomPatternsAndLines() {
    Random random = new Random(7);
    String[] atoms = {"a", "b", "ab", ".", "\\w", "\\W", "\\b", "\\B", "^", "$", "[a-c]", "[^a]",
        "(?i:k)", "\u00E9", "\u212A", "\\s", "\\d", "x"};
    String[] units = {"a", "b", "c", "k", "K", "\u212A", " ", "\u00E9", "1", "_", "\uD83D\uDE00",
        "\uDFFF", "\r", "x"};
    int compared = 0;
    for (int i = 0; i < 2000; i++) {
      StringBuilder p = new StringBuilder();
      int parts = 1 + random.nextInt(4);
      for (int j = 0; j < parts; j++) {
        String atom = atoms[random.nextInt(atoms.length)];
        switch (random.nextInt(6)) {
          case 0 -> p.append("(?:").append(atom).append(")*");
          case 1 -> p.append(atom).append("+?");
          case 2 -> p.append(atom).append("|");
          case 3 -> p.append("(?:").append(atom).append("|").append(atoms[random.nextInt(
              atoms.length)]).append("){1,3}");
          default -> p.append(atom);
        }
      }
      StringBuilder line = new StringBuilder();
      int length = random.nextInt(12);
      for (int j = 0; j < length; j++) {
        line.append(units[random.nextInt(units.length)]);
      }
      Program prog = Program.compile(RegexParser.parse(p.toString(), random.nextBoolean()), 0);
      RegexMatcher backtracker = new RegexMatcher(prog);
      backtracker.force = 1;
      RegexMatcher pike = new RegexMatcher(prog);
      pike.force = 2;
      assertThat(all(pike, line.toString())).as("%s on '%s'", p, line)
          .isEqualTo(all(backtracker, line.toString()));
      compared++;
    }
    assertThat(compared).isEqualTo(2000);
  }

  @Test
  void matchingTimeIsLinearWhateverThePattern() {
    // (a+)+$ backtracks exponentially in a naive engine on a's followed by a non-match.
    String line = "a".repeat(20_000) + "!";
    for (int force : new int[] {1, 2}) {
      RegexMatcher m = matcher("(a+)+$", false);
      m.force = force;
      assertThat(m.find(line, 0)).isFalse();
      Program p = Program.compile(RegexParser.parse("(a+)+$", false), 0);
      // Each (instruction, position) state is visited at most once per search.
      assertThat(m.steps).isLessThanOrEqualTo((long) p.size() * (line.length() + 1));
    }
  }

  @Test
  void longLinesRunOnThePikeVmWithTheSameAnswer() {
    String line = "x".repeat(300_000) + "needle42 tail";
    RegexMatcher m = matcher("ne+dle\\d+", false);
    assertThat(m.find(line, 0)).isTrue();
    assertThat(m.start()).isEqualTo(300_000);
    assertThat(m.end()).isEqualTo(300_008);
  }

  @Test
  void aLoneSurrogateMatchesNoClassButSeparatesWords() {
    String line = "ab\uDFFFcd";
    assertThat(all(matcher(".", false), line)).containsExactly("0-1", "1-2", "3-4", "4-5");
    assertThat(all(matcher("[^a]", false), line)).containsExactly("1-2", "3-4", "4-5");
    assertThat(all(matcher("\\W", false), line)).isEmpty();
    assertThat(all(matcher("\\b", false), line)).containsExactly("0-0", "2-2", "3-3", "5-5");
  }

  @Test
  void caseFoldingFollowsSimpleFoldingOrbitsAndFoldsBeforeNegating() {
    assertThat(all(matcher("k", true), "kK\u212Ax")).containsExactly("0-1", "1-2", "2-3");
    assertThat(all(matcher("[^k]", true), "kK\u212Ax")).containsExactly("3-4");
    assertThat(all(matcher("\u03C3", true), "\u03A3\u03C3\u03C2")).hasSize(3);
    // The dotted capital I and the dotless i fold with nothing under simple folding.
    assertThat(all(matcher("i", true), "iI\u0130\u0131")).containsExactly("0-1", "1-2");
    assertThat(all(matcher("\u00DF", true), "\u00DF\u1E9E ss")).containsExactly("0-1", "1-2");
  }

  @Test
  void classSetOperationsAndNestedClasses() {
    assertThat(all(matcher("[a-z&&[^aeiou]]+", false), "abcdef")).containsExactly("1-4", "5-6");
    assertThat(all(matcher("[0-9--4]", false), "345")).containsExactly("0-1", "2-3");
    assertThat(all(matcher("[a-g~~b-h]", false), "abgh")).containsExactly("0-1", "3-4");
    assertThat(all(matcher("[[:digit:][:upper:]]", false), "a1B")).containsExactly("1-2",
        "2-3");
    assertThat(all(matcher("[]a]", false), "]a")).containsExactly("0-1", "1-2");
  }

  @Test
  void unicodeClassesAndPerlClasses() {
    assertThat(all(matcher("\\w+", false), "caf\u00E9 x_1 \u0661\u0662")).containsExactly("0-4",
        "5-8", "9-11");
    assertThat(all(matcher("\\d", false), "1\u0661a")).containsExactly("0-1", "1-2");
    assertThat(all(matcher("\\s", false), "a\u00A0b\u3000c")).containsExactly("1-2", "3-4");
    assertThat(all(matcher("\\p{Greek}+", false), "a\u03B1\u03B2b")).containsExactly("1-3");
    assertThat(all(matcher("\\pL", false), "1a")).containsExactly("1-2");
    assertThat(all(matcher("\\p{^Lu}", false), "aB")).containsExactly("0-1");
  }

  @Test
  void parseErrorsNameWhatAndWhere() {
    assertThatThrownBy(() -> RegexParser.parse("a(b", false))
        .isInstanceOf(RegexSyntaxException.class)
        .hasMessage("regex parse error at offset 1 of \"a(b\": unclosed group");
    assertThatThrownBy(() -> RegexParser.parse("(?=x)", false))
        .hasMessageEndingWith("look-around is not supported");
    assertThatThrownBy(() -> RegexParser.parse("(a)\\1", false))
        .hasMessageEndingWith("backreferences are not supported");
    assertThatThrownBy(() -> RegexParser.parse("a\\nb", false))
        .hasMessageContaining("the literal '\\n' is not allowed");
    assertThatThrownBy(() -> RegexParser.parse("*a", false))
        .hasMessageEndingWith("repetition operator missing expression");
    assertThatThrownBy(() -> RegexParser.parse("[a", false))
        .hasMessageEndingWith("unclosed character class");
    assertThatThrownBy(() -> RegexParser.parse("[z-a]", false))
        .hasMessageContaining("invalid range");
    assertThatThrownBy(() -> RegexParser.parse("\\p{Klingon}", false))
        .hasMessageEndingWith("unknown Unicode class 'Klingon'");
    assertThatThrownBy(() -> RegexParser.parse("(?-u)a", false))
        .hasMessageContaining("(?-u) is not supported");
    assertThatThrownBy(() -> RegexParser.parse("a)", false))
        .hasMessageContaining("unopened group");
    assertThatThrownBy(() -> RegexParser.parse("x{3,2}", false))
        .hasMessageContaining("invalid repetition range");
    assertThatThrownBy(() -> RegexParser.parse("\\q", false))
        .hasMessageContaining("unrecognized escape sequence");
    assertThatThrownBy(() -> RegexParser.parse("(".repeat(300) + ")".repeat(300), false))
        .hasMessageContaining("nest deeper than 250");
    assertThatThrownBy(() -> Program.compile(RegexParser.parse("(?:a{1000}){1000}", false), 0))
        .hasMessageContaining("too large");
  }

  @Test
  void flagsApplyToTheRestOfTheirGroupAndVerboseModeSkipsSpaceAndComments() {
    assertThat(all(matcher("a(?i)b|c", false), "aB C")).containsExactly("0-2", "3-4");
    assertThat(all(matcher("(?i:a)b", false), "AbAB")).containsExactly("0-2");
    assertThat(all(matcher("(?x) a b # comment\n c", false), "abc")).containsExactly("0-3");
    assertThat(all(matcher("(?U)a+", false), "aaa")).containsExactly("0-1", "1-2", "2-3");
    assertThat(all(matcher("\\Q.*\\E+", false), ".**")).containsExactly("0-3");
    assertThat(all(matcher("a{", false), "a{")).containsExactly("0-2");
  }

  @Test
  void smartCaseLooksAtLiteralsOnly() {
    assertThat(RegexParser.smartCaseInsensitive("foo")).isTrue();
    assertThat(RegexParser.smartCaseInsensitive("Foo")).isFalse();
    assertThat(RegexParser.smartCaseInsensitive("\\w+_id")).isTrue();
    assertThat(RegexParser.smartCaseInsensitive("\\pL")).isFalse();
    assertThat(RegexParser.smartCaseInsensitive("\\w+")).isFalse();
    assertThat(RegexParser.smartCaseInsensitive("[A-Z]")).isFalse();
    assertThat(RegexParser.smartCaseInsensitive("\\x41")).isFalse();
    assertThat(RegexParser.smartCaseInsensitive("\\S")).isFalse();
  }
}
