package dev.prismindex.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Utf8Test {

  @Test
  void countsBytesLikeJavaScriptsEncoder() {
    assertThat(Utf8.byteLength("")).isZero();
    assertThat(Utf8.byteLength("abc")).isEqualTo(3);
    assertThat(Utf8.byteLength("é")).isEqualTo(2);
    assertThat(Utf8.byteLength("€")).isEqualTo(3);
    assertThat(Utf8.byteLength("\uD83D\uDE00")).isEqualTo(4);
    assertThat(Utf8.byteLength("\uD800")).isEqualTo(3);
    assertThat(Utf8.byteLength("\uDC00\uD800")).isEqualTo(6);
  }

  @Test
  void truncationNeverSplitsACodePoint() {
    assertThat(Utf8.truncateToBytes("abc", 3)).isEqualTo("abc");
    assertThat(Utf8.truncateToBytes("abc", 2)).isEqualTo("ab");
    assertThat(Utf8.truncateToBytes("a€", 3)).isEqualTo("a");
    assertThat(Utf8.truncateToBytes("a\uD83D\uDE00", 4)).isEqualTo("a");
    assertThat(Utf8.truncateToBytes("a\uD83D\uDE00", 5)).isEqualTo("a\uD83D\uDE00");
    assertThat(Utf8.truncateToBytes("abc", 0)).isEmpty();
  }

  @Test
  void agreesWithTheJdkEncoderOnWellFormedText() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 500; round++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(40); i > 0; i--) {
        int codePoint = switch (random.nextInt(4)) {
          case 0 -> 0x20 + random.nextInt(0x5F);
          case 1 -> 0x80 + random.nextInt(0x780);
          case 2 -> 0x800 + random.nextInt(0xD000);
          default -> 0x10000 + random.nextInt(0xFFFFF);
        };
        text.appendCodePoint(codePoint);
      }
      String s = text.toString();
      int jdk = s.getBytes(StandardCharsets.UTF_8).length;
      assertThat(Utf8.byteLength(s)).as("seed %d: %s", seed, s).isEqualTo(jdk);
      int cap = random.nextInt(jdk + 1);
      String cut = Utf8.truncateToBytes(s, cap);
      assertThat(cut.getBytes(StandardCharsets.UTF_8).length).as("seed %d", seed)
          .isLessThanOrEqualTo(cap);
      assertThat(s).startsWith(cut);
      assertThat(cut.isEmpty() || !Character.isHighSurrogate(cut.charAt(cut.length() - 1)))
          .as("seed %d", seed).isTrue();
    }
  }
}
