package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LiteralPatternTest {

  /** One visited line, for assertions. */
  record Line(int number, String text, long bytes) {}

  static List<Line> lines(byte[] content, int maxLineBytes) {
    List<Line> out = new ArrayList<>();
    LiteralPattern.forEachLine(content, maxLineBytes, (line, text, bytes) -> {
      out.add(new Line(line, text, bytes));
      return true;
    });
    return out;
  }

  static List<Line> lines(String content) {
    return lines(content.getBytes(StandardCharsets.UTF_8), 1000);
  }

  static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  @Test
  void compileRejectsEmptyAndOversizeQueriesWithExactMessages() {
    assertThatThrownBy(() -> LiteralPattern.compile("", false, 512))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("query must be non-empty");
    assertThatThrownBy(() -> LiteralPattern.compile("x".repeat(9), true, 8))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("query exceeds 8 byte pattern limit");
    // bytes, not chars: "é" is 2 bytes, a lone surrogate counts 3
    assertThat(LiteralPattern.compile("éééé", true, 8).query()).isEqualTo("éééé");
    assertThatThrownBy(() -> LiteralPattern.compile("ééééa", true, 8))
        .hasMessage("query exceeds 8 byte pattern limit");
    assertThatThrownBy(() -> LiteralPattern.compile("\uD800\uD800\uD800", true, 8))
        .hasMessage("query exceeds 8 byte pattern limit");
    assertThatThrownBy(() -> LiteralPattern.compile("a", true, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxPatternBytes must be a positive safe integer at most 4096");
  }

  @Test
  void defaultInsensitiveMatchIsPlainSubstringWithFirstOccurrenceColumn() {
    LiteralPattern p = LiteralPattern.compile("Foo", false, 512);
    assertThat(p.caseSensitive()).isFalse();
    assertThat(p.column("xx fOO foo")).isEqualTo(4);
    assertThat(p.column("nothing")).isZero();
    LiteralPattern sensitive = LiteralPattern.compile("Foo", true, 512);
    assertThat(sensitive.column("xx fOO Foo")).isEqualTo(8);
    assertThat(sensitive.column("foo")).isZero();
  }

  @Test
  void regexMetacharactersAreLiteral() {
    LiteralPattern p = LiteralPattern.compile("(a+)+$", false, 512);
    assertThat(p.column("aaaaaaaaaaaaaaaaaaaaaaaaaaaa!")).isZero();
    assertThat(p.column("x = (a+)+$;")).isEqualTo(5);
    assertThat(LiteralPattern.compile(".*", true, 512).column("abc")).isZero();
    assertThat(LiteralPattern.compile("\\d[x]", true, 512).column("1 \\d[x]")).isEqualTo(3);
  }

  @Test
  void columnIsMeasuredInTheOriginalLineWhenLowerCasingChangesLength() {
    // U+0130 lower-cases to "i" + U+0307 (two units) under Locale.ROOT
    LiteralPattern p = LiteralPattern.compile("needle", false, 512);
    assertThat(p.column("İİİ needle")).isEqualTo(5);
    assertThat("İİİ needle".indexOf("needle") + 1).isEqualTo(5);
    // the query itself may contain İ; both sides are lowered the same way
    LiteralPattern dotted = LiteralPattern.compile("İx", false, 512);
    assertThat(dotted.column("aİX")).isEqualTo(2);
    assertThat(dotted.column("ai\u0307x")).isEqualTo(2);
    // a match starting inside an expansion maps to the code point it came from
    LiteralPattern combining = LiteralPattern.compile("\u0307", false, 512);
    assertThat(combining.column("abİ")).isEqualTo(3);
    // supplementary characters count two units
    assertThat(LiteralPattern.compile("x", false, 512).column("😀İx")).isEqualTo(4);
  }

  @Test
  void nonAsciiQueriesMatchCaseInsensitively() {
    assertThat(LiteralPattern.compile("ÄPFEL", false, 512).column("große äpfel")).isEqualTo(7);
    assertThat(LiteralPattern.compile("ΣΟΦΊΑ", false, 512).column("η σοφία")).isEqualTo(3);
    assertThat(LiteralPattern.compile("日本", true, 512).column("こんにちは日本")).isEqualTo(6);
  }

  @Test
  void linesSplitOnLfWithCrlfAndFinalCrStripped() {
    assertThat(lines("a\nb\r\nc")).containsExactly(
        new Line(1, "a", 1), new Line(2, "b", 1), new Line(3, "c", 1));
    assertThat(lines("a\rb\n")).containsExactly(new Line(1, "a\rb", 3));
    assertThat(lines("abc\r")).containsExactly(new Line(1, "abc", 3));
    assertThat(lines("\r")).containsExactly(new Line(1, "", 0));
    assertThat(lines("a\r\r\n")).containsExactly(new Line(1, "a\r", 2));
    assertThat(lines("a\r\r")).containsExactly(new Line(1, "a\r", 2));
    assertThat(lines("a\n")).containsExactly(new Line(1, "a", 1));
    assertThat(lines("a\n\n")).containsExactly(new Line(1, "a", 1), new Line(2, "", 0));
    assertThat(lines("\n")).containsExactly(new Line(1, "", 0));
    assertThat(lines("")).isEmpty();
    assertThat(lines("\r\n\r\n")).containsExactly(new Line(1, "", 0), new Line(2, "", 0));
  }

  @Test
  void malformedUtf8BecomesReplacementCharactersTheWhatwgWay() {
    assertThat(lines(bytes(0xE2, 0x82, 0x41), 100).get(0).text()).isEqualTo("\uFFFDA");
    assertThat(lines(bytes(0xED, 0xA0, 0x80), 100).get(0).text()).isEqualTo("\uFFFD\uFFFD\uFFFD");
    assertThat(lines(bytes(0xC0, 0x80), 100).get(0).text()).isEqualTo("\uFFFD\uFFFD");
    assertThat(lines(bytes(0xF0, 0x9F, 0x98), 100).get(0).text()).isEqualTo("\uFFFD");
    assertThat(lines(bytes(0xF0, 0x9F, 0x98, 0x80), 100).get(0).text()).isEqualTo("😀");
    assertThat(lines(bytes(0x80, 0x0A, 0xFF), 100))
        .containsExactly(new Line(1, "\uFFFD", 1), new Line(2, "\uFFFD", 1));
    assertThat(lines(bytes(0xEF, 0xBB, 0xBF, 0x61), 100).get(0).text()).isEqualTo("\uFEFFa");
  }

  @Test
  void overlongLinesAreNumberedButSkipped() {
    List<Line> out = lines("short\n123456\nok\r\n12345\r\n".getBytes(StandardCharsets.UTF_8), 5);
    assertThat(out).containsExactly(new Line(1, "short", 5), new Line(2, null, 6),
        new Line(3, "ok", 2), new Line(4, "12345", 5));
    assertThatThrownBy(() -> lines(new byte[0], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxLineBytes must be a positive safe integer at most 1048576");
  }

  @Test
  void multiByteLineOfTwentyKilobytesIsDecodedWhole() {
    String line = "ü€😀".repeat(2_000); // 2 + 3 + 4 bytes each = 18 000 bytes
    byte[] content = (line + "needle\n").getBytes(StandardCharsets.UTF_8);
    LiteralPattern p = LiteralPattern.compile("NEEDLE", false, 512);
    assertThat(p.firstMatch(content)).contains(
        new LiteralPattern.LineMatch(1, line.length() + 1, line + "needle"));
  }

  @Test
  void uncappedSplittingSearchesALineOfTwoMegabytes() {
    String line = "ü€😀".repeat(250_000) + "needle"; // 2 250 006 bytes
    byte[] content = ("a\n" + line + "\nb").getBytes(StandardCharsets.UTF_8);
    LiteralPattern p = LiteralPattern.compile("NEEDLE", false, 512);
    assertThat(p.firstMatch(content)).contains(
        new LiteralPattern.LineMatch(2, 1_000_001, line));
    List<Long> sizes = new ArrayList<>();
    LiteralPattern.forEachLine(content, (n, text, bytes) -> sizes.add(bytes));
    assertThat(sizes).containsExactly(1L, 2_250_006L, 1L);
  }

  @Test
  void windowsAreBoundedInBytesAndHoldTheMatch() {
    String shortLine = "ü".repeat(10); // 20 bytes
    assertThat(LiteralPattern.window(shortLine, 5, 20)).isSameAs(shortLine);
    assertThat(LiteralPattern.windowStart(shortLine, 5, 20)).isZero();
    String line = "😀".repeat(100) + "needle" + "é".repeat(100);
    int column = 201;
    int start = LiteralPattern.windowStart(line, column, 64);
    String window = LiteralPattern.window(line, column, 64);
    assertThat(start).isEqualTo(184); // 200 - 64 / 4, on a surrogate pair boundary
    assertThat(window).startsWith("😀".repeat(8) + "needle").isEqualTo(line.substring(start,
        start + window.length()));
    assertThat(window.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(64);
    // Column 0 (a context line): the first bytes.
    assertThat(LiteralPattern.window(line, 0, 9)).isEqualTo("😀😀");
  }

  @Test
  void firstMatchReturnsTheFirstMatchingLine() {
    LiteralPattern p = LiteralPattern.compile("b", true, 512);
    byte[] content = "a\nxxb b\nb\n".getBytes(StandardCharsets.UTF_8);
    assertThat(p.firstMatch(content)).contains(new LiteralPattern.LineMatch(2, 3, "xxb b"));
    assertThat(p.firstMatch("a\n".getBytes(StandardCharsets.UTF_8))).isEmpty();
  }

  @Test
  void streamingSplitEqualsWholeSplitForRandomChunking() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    byte[] alphabet = bytes('a', 'b', '\n', '\r', 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x80);
    for (int round = 0; round < 300; round++) {
      ByteArrayOutputStream data = new ByteArrayOutputStream();
      int length = random.nextInt(200);
      for (int i = 0; i < length; i++) {
        data.write(alphabet[random.nextInt(alphabet.length)]);
      }
      byte[] content = data.toByteArray();
      int maxLine = 1 + random.nextInt(12);
      List<Line> whole = lines(content, maxLine);
      List<Line> streamed = new ArrayList<>();
      LineSplitter splitter = new LineSplitter(maxLine, (line, text, bytes) -> {
        streamed.add(new Line(line, text, bytes));
        return true;
      });
      int offset = 0;
      while (offset < content.length) {
        int n = Math.min(content.length - offset, 1 + random.nextInt(7));
        splitter.feed(content, offset, n);
        offset += n;
      }
      splitter.finish();
      assertThat(streamed).as("seed %d round %d", seed, round).isEqualTo(whole);
      // the line bytes plus terminators account for every input byte
      long total = whole.stream().mapToLong(Line::bytes).sum();
      long lf = 0;
      for (byte b : content) {
        lf += b == '\n' ? 1 : 0;
      }
      assertThat(total).as("seed %d", seed).isLessThanOrEqualTo(content.length - lf);
    }
  }

  @Test
  void validUtf8DecodesLikeTheJdk() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 500; round++) {
      StringBuilder text = new StringBuilder();
      int n = random.nextInt(40);
      for (int i = 0; i < n; i++) {
        int cp;
        do {
          cp = random.nextInt(4) == 0 ? random.nextInt(0x110000) : random.nextInt(0x800);
        } while (cp >= 0xD800 && cp <= 0xDFFF);
        text.appendCodePoint(cp);
      }
      byte[] encoded = text.toString().getBytes(StandardCharsets.UTF_8);
      assertThat(Utf8Decoder.decode(encoded, 0, encoded.length))
          .as("seed %d", seed).isEqualTo(text.toString());
    }
  }

  @Test
  void longTextIsDecodedAsShortTextIs() {
    // The JDK's decoder is tried first; its U+FFFD must not hide ill-formed bytes.
    String pad = "x".repeat(1100);
    byte[] wellFormed = (pad + "caf\u00e9 \uD83D\uDE00").getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8Decoder.decode(wellFormed, 0, wellFormed.length, '\uDFFF'))
        .isEqualTo(pad + "caf\u00e9 \uD83D\uDE00");
    byte[] head = (pad + "\u00e9").getBytes(StandardCharsets.UTF_8);
    byte[] tail = " \uFFFD".getBytes(StandardCharsets.UTF_8);
    byte[] bad = new byte[head.length + 2 + tail.length];
    System.arraycopy(head, 0, bad, 0, head.length);
    bad[head.length] = (byte) 0xFF;
    bad[head.length + 1] = (byte) 0xE2; // a truncated three-byte sequence
    System.arraycopy(tail, 0, bad, head.length + 2, tail.length);
    assertThat(Utf8Decoder.decode(bad, 0, bad.length, '\uDFFF'))
        .isEqualTo(pad + "\u00e9\uDFFF\uDFFF \uFFFD");
  }

  /** The matching lines of every line, as the scanner finds them: number, column and text. */
  static List<String> matchingLines(LiteralPattern p, byte[] content, boolean candidatesOnly) {
    List<String> out = new ArrayList<>();
    LiteralPattern.LineVisitor v = (line, text, bytes) -> {
      int col = p.column(text);
      if (col > 0) {
        out.add(line + ":" + col + ":" + bytes + ":" + text);
      }
      return true;
    };
    if (candidatesOnly) {
      p.forEachCandidateLine(content, v);
    } else {
      LiteralPattern.forEachLine(content, v);
    }
    return out;
  }

  @Test
  void candidateLinesFindEveryMatchingLineWithItsNumberAndText() {
    String[] queries = {"ab", "AB", "k", "ik", "i", "\u00e9", "a\r", "b\nc", "\uFFFD", "\uD83D\uDE00", "Ka",
        "\u212A"};
    String[] pieces = {"ab", "AB", "aB", "\r", "\n", "\r\n", "\u0130", "\u212A", "\u00e9", "\u00c9", "x",
        "k", "K", "i", "I", "\uD83D\uDE00", " ", "\uFEFF"};
    byte[][] raw = {bytes(0xC3), bytes(0xE2, 0x84), bytes(0xF0, 0x9F), bytes(0x80), bytes(0xFF)};
    Random random = new Random(39);
    for (int round = 0; round < 3000; round++) {
      ByteArrayOutputStream content = new ByteArrayOutputStream();
      int n = random.nextInt(12);
      for (int i = 0; i < n; i++) {
        if (random.nextInt(6) == 0) {
          content.writeBytes(raw[random.nextInt(raw.length)]);
        } else {
          content.writeBytes(pieces[random.nextInt(pieces.length)].getBytes(StandardCharsets.UTF_8));
        }
      }
      byte[] c = content.toByteArray();
      for (String q : queries) {
        for (boolean caseSensitive : new boolean[] {true, false}) {
          LiteralPattern p = LiteralPattern.compile(q, caseSensitive, 100);
          assertThat(matchingLines(p, c, true))
              .as("%s (case-sensitive %s) in %s", q, caseSensitive, java.util.Arrays.toString(c))
              .isEqualTo(matchingLines(p, c, false));
        }
      }
    }
  }

  @Test
  void candidateLinesStopWhenTheVisitorSaysSo() {
    LiteralPattern p = LiteralPattern.compile("x", true, 10);
    List<Integer> seen = new ArrayList<>();
    p.forEachCandidateLine("x\na\nx\nx\n".getBytes(StandardCharsets.UTF_8), (line, text, bytes) -> {
      seen.add(line);
      return seen.size() < 2;
    });
    assertThat(seen).containsExactly(1, 3);
  }
}
