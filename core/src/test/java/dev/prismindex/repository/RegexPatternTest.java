package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.RegexPattern.CaseMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegexPatternTest {

  private static List<String> matches(String pattern, CaseMode mode, boolean words, String line) {
    RegexPattern p = RegexPattern.compile(pattern, mode, words, 4096);
    List<String> out = new ArrayList<>();
    p.matcher().forEach(line, (s, e) -> out.add(s + "-" + e + ":" + line.substring(s, e)));
    return out;
  }

  private static List<String> lines(byte[] content) {
    List<String> out = new ArrayList<>();
    RegexPattern.forEachLine(content, (n, text, bytes) -> out.add(n + ":" + text));
    return out;
  }

  @Test
  void everyMatchOfALineAsRipgrepListsThem() {
    assertThat(matches("fo+", CaseMode.SENSITIVE, false, "foooo fo f"))
        .containsExactly("0-5:foooo", "6-8:fo");
    // An empty match right where the last one ended is skipped; others are kept.
    assertThat(matches("a*", CaseMode.SENSITIVE, false, "baaac"))
        .containsExactly("0-0:", "1-4:aaa", "5-5:");
    // Leftmost-first: the first alternative that matches wins.
    assertThat(matches("a|ab", CaseMode.SENSITIVE, false, "ab")).containsExactly("0-1:a");
  }

  @Test
  void caseModes() {
    assertThat(matches("foo", CaseMode.SENSITIVE, false, "Foo foo")).containsExactly("4-7:foo");
    assertThat(matches("foo", CaseMode.INSENSITIVE, false, "Foo foo"))
        .containsExactly("0-3:Foo", "4-7:foo");
    assertThat(matches("foo", CaseMode.SMART, false, "Foo foo"))
        .containsExactly("0-3:Foo", "4-7:foo");
    assertThat(matches("Foo", CaseMode.SMART, false, "Foo foo")).containsExactly("0-3:Foo");
    assertThat(RegexPattern.compile("foo", CaseMode.SMART, false, 64).caseInsensitive()).isTrue();
    assertThat(RegexPattern.compile("\\w+", CaseMode.SMART, false, 64).caseInsensitive())
        .isFalse();
  }

  @Test
  void wholeWordsAsRipgrep14DefinesThem() {
    assertThat(matches("foo", CaseMode.SENSITIVE, true, "foo foobar afoo foo.foo (foo)"))
        .containsExactly("0-3:foo", "16-19:foo", "20-23:foo", "25-28:foo");
    // Unicode word characters: an accented letter is part of a word.
    assertThat(matches("foo", CaseMode.SENSITIVE, true, "\u00E9foo foo\u00E9 foo"))
        .containsExactly("10-13:foo");
    // ripgrep's regression r2574: the whole match, not a shortened one.
    assertThat(matches("(\\w+\\.)*domain\\.(\\w+)", CaseMode.SENSITIVE, true,
        "some.domain.com/x")).containsExactly("0-15:some.domain.com");
    // ripgrep's regression r1891: an empty pattern matches between non-word characters.
    assertThat(matches("", CaseMode.SENSITIVE, true, "##")).containsExactly("0-0:", "1-1:",
        "2-2:");
    assertThat(matches("", CaseMode.SENSITIVE, true, "")).containsExactly("0-0:");
    assertThat(matches("\\w+", CaseMode.SENSITIVE, true, "ab cd")).containsExactly("0-2:ab",
        "3-5:cd");
    // A byte that is not UTF-8 is not a word character.
    assertThat(matches("foo", CaseMode.SENSITIVE, true, "foo" + RegexPattern.NOT_UTF8))
        .containsExactly("0-3:foo");
  }

  @Test
  void linesEndAtLfOnlyAndKeepTheirCrAsRipgrepDoes() {
    byte[] content = "a\r\nb\rc\nd\r".getBytes(StandardCharsets.UTF_8);
    assertThat(lines(content)).containsExactly("1:a\r", "2:b\rc", "3:d\r");
    assertThat(matches("a$", CaseMode.SENSITIVE, false, "a\r")).isEmpty();
    assertThat(matches("a\\s$", CaseMode.SENSITIVE, false, "a\r")).containsExactly("0-2:a\r");
    assertThat(matches("b.c", CaseMode.SENSITIVE, false, "b\rc")).containsExactly("0-3:b\rc");
    assertThat(lines(new byte[0])).isEmpty();
    assertThat(lines("x\n".getBytes(StandardCharsets.UTF_8))).containsExactly("1:x");
  }

  @Test
  void bytesThatAreNotUtf8AreMarkedMatchedByNothingAndShownAsReplacement() {
    byte[] content = {'c', 'a', 'f', (byte) 0xE9, ' ', 'x', (byte) 0xE2, (byte) 0x82, 'y'};
    List<String> decoded = new ArrayList<>();
    RegexPattern.forEachLine(content, (n, text, bytes) -> decoded.add(text));
    String line = decoded.get(0);
    // One mark per maximal ill-formed subsequence, as the literal scanner's U+FFFD.
    assertThat(line).isEqualTo("caf" + RegexPattern.NOT_UTF8 + " x" + RegexPattern.NOT_UTF8 + "y");
    assertThat(RegexPattern.readable(line)).isEqualTo("caf\uFFFD x\uFFFDy");
    assertThat(matches("caf.", CaseMode.SENSITIVE, false, line)).isEmpty();
    assertThat(matches("x[^a]y", CaseMode.SENSITIVE, false, line)).isEmpty();
    assertThat(matches("caf", CaseMode.SENSITIVE, false, line)).containsExactly("0-3:caf");
  }

  @Test
  void aWholeTextSearchFindsWhatALineByLineSearchFinds() {
    // forEachMatchingLine skips lines by the required literals (looked for case-insensitively in
    // the lowered text) or by the first characters a match can start with; it must find exactly
    // the lines and matches of matching every line on its own.
    java.util.Random random = new java.util.Random(391);
    String[] extra = {"foo", "Foo", "(?i)foo", "k\\w", "(?i)k+", "ab|cd", "(?i)ab|K", "x?y",
        "\\bfoo\\b", "s\\d", "(?i)\u017F", "(?i)stra\u00DFe", "\u0130", "(?i)\u03C3\u03B9",
        "$", "^", "a*", "ab|c\\.", "(?i)sk|ab", "a\\(b", "(?i)AB\\w", "ab|a", "a|ab", "aa|b",
        "\u00E9|c"};
    int compared = 0;
    for (int round = 0; round < 400; round++) {
      byte[] content = RegexRipgrepDifferentialTest.lines(random, 30);
      String pattern = random.nextBoolean() ? extra[random.nextInt(extra.length)]
          : RegexRipgrepDifferentialTest.pattern(random, 2);
      RegexPattern p;
      try {
        p = RegexPattern.compile(pattern, random.nextInt(3) == 0 ? CaseMode.INSENSITIVE
            : CaseMode.SENSITIVE, random.nextInt(4) == 0, 4096);
      } catch (RepositoryException e) {
        continue;
      }
      assertWholeEqualsPerLine(p, content);
      compared++;
    }
    assertThat(compared).isGreaterThan(300);
  }

  @Test
  void aStartSequenceSkipsOnlyLinesWithoutARunOfItsClasses() {
    // A pattern without a required literal that starts with classes (\d{5,}, [a-c]{2}\w) has its
    // lines skipped unless a run of those classes is in them: digit-, letter- and non-ASCII-heavy
    // lines, CRs, ill-formed bytes, case-insensitive and -w alike must give every line's answer.
    java.util.Random random = new java.util.Random(8013);
    String[] patterns = {"\\d{5,}", "\\d{2}", "\\d{2,3}x", "\\d\\d?\\.", "(\\d){3}", "^\\d{2}",
        "\\b\\w{3}\\b", "[a-c]{2}\\w", "(?i)k{2,}", "(?i)[k\u00E9]{2}s", "\u00E9{2}",
        "\\s{2}\\S", "\\w{1}\\d", "x{0,2}\\d{2}", "\\d{2}|ab", ".{3}", "\\D{2}\\d",
        "\\d{8}", "[^a]{2}", "[a-c]{3,}\\d", "\\d+[a-c]", "x*\\d", "\\d{2,}$", "\\d{1,2}\\b\\w",
        "(?i)k{2,}s", "\\d*(x|\\d)", "1{0}\\d"};
    String[] units = {"0", "1", "9", "12345", "a", "b", "c", "k", "K", "\u212A", "\u00E9", "\u00C9",
        "x", ".", " ", "\u0663", "\uD835\uDFD9", "s", "_"};
    for (int round = 0; round < 600; round++) {
      byte[] content = RegexRipgrepDifferentialTest.lines(random, 1 + random.nextInt(12), units);
      String pattern = patterns[random.nextInt(patterns.length)];
      RegexPattern p = RegexPattern.compile(pattern, random.nextInt(3) == 0 ? CaseMode.INSENSITIVE
          : CaseMode.SENSITIVE, random.nextInt(4) == 0, 4096);
      assertWholeEqualsPerLine(p, content);
    }
  }

  @Test
  void aStartSequenceSkipsAheadOnlyPastCodeUnitsNoRunCanHold() {
    // The skip looks at one code unit in m where no run's class holds it: long lines mostly of
    // other code points (letters, CJK, an astral digit and letter, ill-formed bytes, CR), with a
    // digit, a run or a class member now and then, at the start, the end, across a CRLF.
    java.util.Random random = new java.util.Random(4242);
    String[] patterns = {"\\d{5,}", "\\d{2}", "\\d{8}", "[a-c]{2}\\w", "\\d{3}[x\u00E9]",
        "(?i)k{3}", "\\w{4}\\d", "\\b\\d{4}\\b", "\\d\\D\\d", "\u00E9{3}"};
    String[] rare = {"0", "7", "12345", "123456789", "a", "b", "k", "K", "\u212A", "\u00E9", "x",
        "\u0663\u0664\u0665", "\uD835\uDFD9", "\uD835\uDC00"};
    String[] filler = {"q", "Z", " ", ".", "-", "\u4E2D", "\uD83D\uDE00", "\u00FF", "\t"};
    for (int round = 0; round < 300; round++) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      for (int line = random.nextInt(6); line >= 0; line--) {
        for (int j = random.nextInt(300); j > 0; j--) {
          int r = random.nextInt(100);
          if (r == 0) {
            out.write(0xFF);
          } else if (r == 1) {
            out.write('\r');
          } else {
            String[] from = r < 8 ? rare : filler;
            out.writeBytes(from[random.nextInt(from.length)].getBytes(
                java.nio.charset.StandardCharsets.UTF_8));
          }
        }
        out.writeBytes(random.nextBoolean() ? new byte[] {'\n'} : new byte[] {'\r', '\n'});
      }
      String pattern = patterns[random.nextInt(patterns.length)];
      RegexPattern p = RegexPattern.compile(pattern, random.nextInt(3) == 0 ? CaseMode.INSENSITIVE
          : CaseMode.SENSITIVE, random.nextInt(4) == 0, 4096);
      assertWholeEqualsPerLine(p, out.toByteArray());
    }
  }

  @Test
  void aPatternStartingWithOneCharacterFindsItsStartsAcrossTheWholeText() {
    // The matcher looks for the one first character through the whole text and keeps the answer
    // for the next search: lines far apart, with and without a required literal, an astral first
    // character (not searched that way), ill-formed bytes and CRs around.
    java.util.Random random = new java.util.Random(9031);
    String[] patterns = {"onNext|onError", "ab|ac", "a\\w*c", "x\\d", "\u00E9\\w", "a",
        "ab*c", "b(?:a|c)+", "\uD83D\uDE00.", "x\\b", "c$", "a{2,}"};
    String[] units = {"a", "b", "c", "x", "1", " ", "\u00E9", "\uD83D\uDE00", "onNext", "onError",
        "on", "z", "zz", "zzz"};
    for (int round = 0; round < 600; round++) {
      byte[] content = RegexRipgrepDifferentialTest.lines(random, 1 + random.nextInt(20), units);
      String pattern = patterns[random.nextInt(patterns.length)];
      RegexPattern p = RegexPattern.compile(pattern, CaseMode.SENSITIVE, random.nextInt(4) == 0,
          4096);
      assertWholeEqualsPerLine(p, content);
    }
  }

  @Test
  void caseInsensitiveLiteralsAreFoundUpToAsciiCaseInTheTextItself() {
    // Literals of letters whose case orbits are ASCII (no k, s) are looked for in the text with
    // either case of a pivot letter, not in a lower-cased copy: every case mix, the pivot's cases
    // next to each other, near misses, non-ASCII look-alikes (fullwidth, dotted I) and literals
    // with k or s (the lower-cased path) must give every line's answer.
    java.util.Random random = new java.util.Random(5150);
    String[] patterns = {"(?i)flatmap", "(?i)onnext|onerror", "(?i)fl", "(?i)a-b", "(?i)xyx",
        "(?i)p\\.q", "(?i)map\\w+", "(?i)\\bon\\w*", "(?i)flatmap|sk", "(?i)ixi", "(?i)pp"};
    String[] units = {"f", "F", "l", "L", "a", "A", "t", "T", "m", "M", "p", "P", "flat", "FLAT",
        "map", "MaP", "on", "oN", "next", "NEXT", "error", "eRRor", "x", "X", "y", "i", "I",
        "\u0130", "\u0131", "\uFF50", "-", "b", ".", "q", "s", "k", "\u212A", "\u017F", " "};
    for (int round = 0; round < 600; round++) {
      byte[] content = RegexRipgrepDifferentialTest.lines(random, 1 + random.nextInt(12), units);
      String pattern = patterns[random.nextInt(patterns.length)];
      RegexPattern p = RegexPattern.compile(pattern, random.nextBoolean() ? CaseMode.INSENSITIVE
          : CaseMode.SENSITIVE, random.nextInt(4) == 0, 4096);
      assertWholeEqualsPerLine(p, content);
    }
  }

  @Test
  void lineFeedsAreCountedEightBytesAtATimeAsOneByOne() {
    java.util.Random random = new java.util.Random(77);
    for (int round = 0; round < 2000; round++) {
      byte[] b = new byte[random.nextInt(120)];
      for (int i = 0; i < b.length; i++) {
        int r = random.nextInt(6);
        b[i] = (byte) (r == 0 ? '\n' : r == 1 ? 0x8A : r == 2 ? 0x0B : r == 3 ? 0x09
            : random.nextInt(256));
      }
      int from = b.length == 0 ? 0 : random.nextInt(b.length);
      int to = from + random.nextInt(b.length - from + 1);
      int expected = 0;
      for (int i = from; i < to; i++) {
        expected += b[i] == '\n' ? 1 : 0;
      }
      assertThat(LineFeeds.count(b, from, to)).isEqualTo(expected);
    }
    // Long runs of line feeds: more than one byte lane's worth (255) in a lane, and in all.
    for (int length : new int[] {2040, 2047, 2048, 2049, 5000, 100_003}) {
      byte[] feeds = new byte[length];
      java.util.Arrays.fill(feeds, (byte) '\n');
      assertThat(LineFeeds.count(feeds, 0, length)).isEqualTo(length);
      assertThat(LineFeeds.count(feeds, 3, length - 1)).isEqualTo(length - 4);
      feeds[length / 2] = 'x';
      assertThat(LineFeeds.count(feeds, 0, length)).isEqualTo(length - 1);
    }
  }

  /** forEachMatchingLine over the whole text finds what matching every line on its own finds. */
  private static void assertWholeEqualsPerLine(RegexPattern p, byte[] content) {
    List<String> perLine = new ArrayList<>();
    RegexPattern.Matcher m = p.matcher();
    List<String> lines = new ArrayList<>();
    RegexPattern.forEachLine(content, (n, text, bytes) -> {
      lines.add(text);
      List<String> spans = new ArrayList<>();
      m.forEach(text, (s, e) -> {
        if (s < e || spans.isEmpty()) {
          spans.add(s + "-" + e);
        }
        return true;
      });
      if (!spans.isEmpty()) {
        perLine.add(n + ":" + spans);
      }
      return true;
    });
    List<String> whole = new ArrayList<>();
    p.matcher().forEachMatchingLine(content, (n, line, spans, count) -> {
      List<String> list = new ArrayList<>();
      for (int i = 0; i < count; i += 2) {
        list.add(spans[i] + "-" + spans[i + 1]);
      }
      whole.add(n + ":" + list + ":" + line);
      return true;
    });
    // The same from a reused buffer: only its first content.length bytes, whatever follows them
    // (here the content again after a line feed, so the matches would differ if it were read).
    byte[] buffer = new byte[2 * content.length + 1];
    System.arraycopy(content, 0, buffer, 0, content.length);
    buffer[content.length] = '\n';
    System.arraycopy(content, 0, buffer, content.length + 1, content.length);
    List<String> inBuffer = new ArrayList<>();
    p.matcher().forEachMatchingLine(buffer, content.length, (n, line, spans, count) -> {
      List<String> list = new ArrayList<>();
      for (int i = 0; i < count; i += 2) {
        list.add(spans[i] + "-" + spans[i + 1]);
      }
      inBuffer.add(n + ":" + list + ":" + line);
      return true;
    });
    assertThat(inBuffer).as("/%s/ from a buffer", p.pattern()).isEqualTo(whole);
    perLine.replaceAll(s -> s + ":" + lines.get(Integer.parseInt(s.substring(0, s.indexOf(':'))) - 1));
    assertThat(whole).as("/%s/ %s on %s", p.pattern(), p, List.of(new String(content, java.nio.charset.StandardCharsets.UTF_8)))
        .isEqualTo(perLine);
  }

  @Test
  void errorsAreRepositoryExceptionsWithTheParsersMessage() {
    assertThatThrownBy(() -> RegexPattern.compile("a(", CaseMode.SENSITIVE, false, 4096))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("regex parse error at offset 1 of \"a(\": unclosed group");
    assertThatThrownBy(() -> RegexPattern.compile("x".repeat(9), CaseMode.SENSITIVE, false, 8))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("query exceeds 8 byte pattern limit");
    assertThatThrownBy(() -> RegexPattern.compile("a{1000}{1000}", CaseMode.SENSITIVE, false,
        4096)).isInstanceOf(RepositoryException.class).hasMessageContaining("too large");
    assertThatThrownBy(() -> RegexPattern.compile("a", CaseMode.SENSITIVE, false, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxPatternBytes must be a positive safe integer at most 4096");
  }

  @Test
  void fixedStringsAreQuotedAndSeveralPatternsJoinedAsRipgrepJoinsThem() {
    assertThat(RegexPattern.quote("a.b*(c)|[d]{e}^$#&-~\\"))
        .isEqualTo("a\\.b\\*\\(c\\)\\|\\[d\\]\\{e\\}\\^\\$\\#\\&\\-\\~\\\\");
    String quoted = RegexPattern.anyOf(List.of("a.c", "(x"), true);
    assertThat(matches(quoted, CaseMode.SENSITIVE, false, "abc a.c (x"))
        .containsExactly("4-7:a.c", "8-10:(x");
    assertThat(RegexPattern.anyOf(List.of("fo+", "ba?r"), false)).isEqualTo("fo+|ba?r");
    // Flags set at the start of the first pattern reach the others, as with rg -e -e.
    assertThat(matches(RegexPattern.anyOf(List.of("(?i)a", "b"), false), CaseMode.SENSITIVE,
        false, "AB")).containsExactly("0-1:A", "1-2:B");
  }
}
