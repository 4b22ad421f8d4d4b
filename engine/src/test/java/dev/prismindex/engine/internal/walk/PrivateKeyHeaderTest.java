package dev.prismindex.engine.internal.walk;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The sniff for a private-key header finds one wherever it starts in the first {@link
 * FileRules#KEY_SNIFF_BYTES} bytes, and nothing past them: against the header's pattern over the
 * same bytes, on seeded random texts made of the needle's own pieces (dashes, letters of
 * "BEGIN"), so near misses and overlaps are common.
 */
class PrivateKeyHeaderTest {

  private static final Pattern HEADER = Pattern.compile(
      "(?m)^[ \\t]*-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[ \\t]*\\r?$");
  private static final String KEY = "-----BEGIN RSA PRIVATE KEY-----";

  @Test
  void aHeaderIsFoundWhereverItStartsInTheSniffedBytes() {
    int window = FileRules.KEY_SNIFF_BYTES;
    for (int at : new int[] {0, 1, 10, 11, 12, 4000, window - KEY.length() - 1}) {
      String text = "x".repeat(Math.max(0, at - 1)) + (at > 0 ? "\n" : "") + KEY + "\n";
      byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
      assertThat(FileRules.hasPrivateKeyHeader(bytes, bytes.length)).as("at %d", at).isTrue();
    }
    String beyond = "x".repeat(window) + "\n" + KEY + "\n";
    byte[] bytes = beyond.getBytes(StandardCharsets.US_ASCII);
    assertThat(FileRules.hasPrivateKeyHeader(bytes, bytes.length)).isFalse();
    byte[] cut = (KEY + "\n").getBytes(StandardCharsets.US_ASCII);
    assertThat(FileRules.hasPrivateKeyHeader(cut, 10)).as("only its first bytes").isFalse();
  }

  @Test
  void theSniffAgreesWithThePatternOnNearMisses() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    String[] pieces = {"-", "--", "-----", "BEGIN", "BEGIN ", "BEGI", "EGIN ", "N", " ", "\n",
        "RSA ", "PRIVATE KEY", "-----BEGIN RSA PRIVATE KEY-----", "x", "\t", "\r\n"};
    for (int round = 0; round < 2000; round++) {
      StringBuilder text = new StringBuilder();
      int size = r.nextInt(round % 50 == 0 ? 10_000 : 200);
      while (text.length() < size) {
        text.append(pieces[r.nextInt(pieces.length)]);
      }
      byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
      int length = r.nextInt(bytes.length + 1);
      String sniffed = new String(bytes, 0, Math.min(length, FileRules.KEY_SNIFF_BYTES),
          StandardCharsets.ISO_8859_1);
      assertThat(FileRules.hasPrivateKeyHeader(bytes, length))
          .as("seed %d, round %d", seed, round)
          .isEqualTo(HEADER.matcher(sniffed).find());
    }
  }
}
