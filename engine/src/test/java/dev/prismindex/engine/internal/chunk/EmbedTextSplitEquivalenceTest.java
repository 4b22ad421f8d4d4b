package dev.prismindex.engine.internal.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The hand-written identifier splitter of {@link EmbedText} gives exactly what the regular
 * expressions it replaced gave (kept here as the reference), so no embedding key changes.
 */
class EmbedTextSplitEquivalenceTest {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");
  private static final Pattern WORD_BOUNDARY = Pattern.compile(
      "(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_$]+");

  private static final String[] PIECES = {"get", "Bean", "XML", "Http", "request", "_", "__",
      "$", "$$", "utf8", "Decoder", "9", "A", "b", "ID", "parse_duration", "MAX_CACHE_SIZE", " ",
      "(", ".", "\n", "é", "😀", "日本", "x", "0x1F", "getGet", "HTMLParser", "IOStream2D", "<T>",
      "aB", "Ab", "AB", "a1B", "_A", "A_", "$a$B"};

  @Test
  void sameAsTheRegularExpressions() {
    Random random = new Random(16);
    for (int round = 0; round < 20000; round++) {
      StringBuilder text = new StringBuilder();
      int n = random.nextInt(12);
      for (int i = 0; i < n; i++) {
        text.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String s = text.toString();
      assertThat(EmbedText.splitIdentifiers(s)).as(s).isEqualTo(referenceSplit(s));
      assertThat(EmbedText.words(s)).as(s).isEqualTo(referenceWords(s));
    }
  }

  private static String referenceWords(String name) {
    List<String> out = new ArrayList<>();
    Matcher m = IDENTIFIER.matcher(name);
    while (m.find()) {
      for (String w : WORD_BOUNDARY.split(m.group())) {
        if (!w.isEmpty()) {
          out.add(w.toLowerCase(Locale.ROOT));
        }
      }
    }
    return out.isEmpty() ? name : String.join(" ", out);
  }

  private static String referenceSplit(String text) {
    Matcher m = IDENTIFIER.matcher(text);
    StringBuilder out = new StringBuilder(text.length() + 64);
    int last = 0;
    while (m.find()) {
      String id = m.group();
      String[] parts = WORD_BOUNDARY.split(id);
      int nonEmpty = 0;
      for (String p : parts) {
        nonEmpty += p.isEmpty() ? 0 : 1;
      }
      if (nonEmpty < 2) {
        continue;
      }
      out.append(text, last, m.start());
      boolean first = true;
      for (String p : parts) {
        if (!p.isEmpty()) {
          if (!first) {
            out.append(' ');
          }
          out.append(p.toLowerCase(Locale.ROOT));
          first = false;
        }
      }
      last = m.end();
    }
    return out.append(text, last, text.length()).toString();
  }
}
