package dev.prismindex.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The sanitiser shared by the tool renderings and the CLI's human output (issue 12, item 3). */
class SafeTextTest {

  /** Every character the class comment promises to escape, as code points. */
  static boolean promised(int cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x180E
        || cp == 0x200B || cp == 0x200E || cp == 0x200F || cp == 0x2028 || cp == 0x2029
        || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064)
        || (cp >= 0x2066 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB)
        || (cp >= 0xE0000 && cp <= 0xE007F);
  }

  @Test
  void terminalEscapeSequencesBecomeVisible() {
    assertThat(SafeText.escapeField("a\u001b[31mred\u001b]0;title\u0007\u001b[2J"))
        .isEqualTo("a\\u001B[31mred\\u001B]0;title\\u0007\\u001B[2J");
    assertThat(SafeText.escapeField("csi\u009b2J nel\u0085 del\u007f"))
        .isEqualTo("csi\\u009B2J nel\\u0085 del\\u007F");
  }

  @Test
  void lineBreaksCannotForgeALine() {
    assertThat(SafeText.escapeField("a.txt\nforged.java:1  1.000\r\n"))
        .isEqualTo("a.txt\\nforged.java:1  1.000\\r\\n");
  }

  @Test
  void bidiControlsAndInvisibleCharactersAreShown() {
    assertThat(SafeText.escapeField("\u202etxt.exe")).isEqualTo("\\u202Etxt.exe");
    assertThat(SafeText.escape("\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))
        .isEqualTo("\\u202A\\u202B\\u202C\\u202D\\u2066\\u2067\\u2068\\u2069\\u200E\\u200F\\u061C");
    assertThat(SafeText.escape("a\u200bb\u2060c\ufeffd\ufff9e\u180ef\u206ag"))
        .isEqualTo("a\\u200Bb\\u2060c\\uFEFFd\\uFFF9e\\u180Ef\\u206Ag");
    String hidden = new StringBuilder("x").appendCodePoint(0xE0041).appendCodePoint(0xE007F)
        .append('y').toString();
    assertThat(SafeText.escape(hidden)).isEqualTo("x\\uDB40\\uDC41\\uDB40\\uDC7Fy");
  }

  @Test
  void tabIsKeptInLinesOfContentAndShownInFields() {
    assertThat(SafeText.escape("a\tb")).isEqualTo("a\tb");
    assertThat(SafeText.escapeField("a\tb")).isEqualTo("a\\tb");
  }

  @Test
  void ordinaryTextIsUnchanged() {
    String text = "Main.java é 日本 \\n \\u001B \uD83D\uDE00 \uD83D\uDC68\u200D\uD83D\uDCBB \u200c"
        + new StringBuilder().appendCodePoint(0xE0100); // a variation selector, not a tag
    assertThat(SafeText.escapeField(text)).isSameAs(text);
  }

  @Test
  void everyPromisedCharacterIsEscapedAndEscapingIsIdempotent() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    int[] pool = {'a', ':', '\\', 'u', '\t', '\n', 0x1b, 0x7f, 0x85, 0x9b, 0x202e, 0x2066, 0x200f,
        0xfeff, 0x200d, 0xe0041, 0xe0100, 0x1F600, 0xdb40, 0xdc41, 0xd800, 'é'};
    for (int round = 0; round < 500; round++) {
      StringBuilder raw = new StringBuilder();
      for (int i = random.nextInt(30); i > 0; i--) {
        raw.appendCodePoint(pool[random.nextInt(pool.length)]);
      }
      String field = SafeText.escapeField(raw.toString());
      String line = SafeText.escape(raw.toString());
      assertThat(field.codePoints().noneMatch(SafeTextTest::promised))
          .as("seed %d: %s", seed, field).isTrue();
      assertThat(line.codePoints().noneMatch(cp -> cp != '\t' && promised(cp)))
          .as("seed %d: %s", seed, line).isTrue();
      assertThat(SafeText.escapeField(field)).as("seed %d", seed).isEqualTo(field);
      assertThat(SafeText.escape(line)).as("seed %d", seed).isEqualTo(line);
    }
  }
}
