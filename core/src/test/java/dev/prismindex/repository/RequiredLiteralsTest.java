package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RequiredLiteralsTest {

  /** The plain rule: the first index at or after {@code from} where a literal starts. */
  private static int naive(String text, List<String> literals, boolean asciiCases, int from) {
    String hay = asciiCases ? text.toLowerCase(Locale.ROOT) : text;
    int best = -1;
    for (String l : literals) {
      int at = hay.indexOf(l, from);
      if (at >= 0 && (best < 0 || at < best)) {
        best = at;
      }
    }
    return best;
  }

  @Test
  void theByteSearchFindsWhatTheStringSearchFinds() {
    Random random = new Random(39);
    String alphabet = "retunRETUNx\n\t @`{[0";
    List<List<String>> sets = List.of(List.of("return"), List.of("onnext", "onerror"),
        List.of("r"), List.of("ur"), List.of("@n"), List.of("tu", "eturn", "n@"));
    for (int round = 0; round < 20_000; round++) {
      List<String> literals = sets.get(random.nextInt(sets.size()));
      boolean asciiCases = random.nextBoolean();
      StringBuilder b = new StringBuilder();
      int n = random.nextInt(90);
      for (int i = 0; i < n; i++) {
        b.append(random.nextInt(8) == 0 ? literals.get(random.nextInt(literals.size()))
            : String.valueOf(alphabet.charAt(random.nextInt(alphabet.length()))));
      }
      String text = b.toString();
      byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
      // Slack after the text, as in a reused buffer: never searched.
      byte[] buffer = java.util.Arrays.copyOf(bytes, bytes.length + random.nextInt(20));
      java.util.Arrays.fill(buffer, bytes.length, buffer.length, (byte) 'r');
      RequiredLiterals r = new RequiredLiterals(literals, asciiCases);
      RequiredLiterals.ByteOccurrences inBytes = r.in(buffer, bytes.length);
      RequiredLiterals.Occurrences inText = r.in(text);
      int from = 0;
      while (true) {
        int expected = naive(text, literals, asciiCases, from);
        assertThat(inBytes.first(from)).as("%s in '%s' from %d", literals, text, from)
            .isEqualTo(expected);
        assertThat(inText.first(from)).isEqualTo(expected);
        if (expected < 0) {
          break;
        }
        from = expected + 1 + random.nextInt(3);
      }
    }
  }

  @Test
  void nonAsciiBytesAreNeverALetterUpToCase() {
    // 0xD2 | 0x20 is 0xF2, 0x52 | 0x20 is 'r': only ASCII bytes fold.
    byte[] text = {(byte) 0xD2, 'e', 't', 'u', 'r', 'n', ' ', 'R', 'E', 'T', 'U', 'R', 'N'};
    RequiredLiterals r = new RequiredLiterals(List.of("return"), true);
    assertThat(r.in(text, text.length).first(0)).isEqualTo(7);
    assertThat(new RequiredLiterals(List.of("RETURN"), false).in(text, text.length).first(0))
        .isEqualTo(7);
    assertThat(new RequiredLiterals(List.of("return"), false).in(text, text.length).first(0))
        .isEqualTo(-1);
  }
}
