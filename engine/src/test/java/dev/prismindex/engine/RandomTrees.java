package dev.prismindex.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Seeded random trees for the exact modes' equivalence tests ({@link LiteralEquivalenceTest},
 * {@link RegexEquivalenceTest}): 10 to 39 files in nested directories (one with a non-ASCII name),
 * lines of the test's words with LF or CRLF ends, now and then a lone CR inside a line, a line
 * longer than the scanner's line cap, a last line without a newline, or a malformed UTF-8 byte.
 */
final class RandomTrees {
  private RandomTrees() {}

  /**
   * Writes one random tree at {@code tree} ({@link #generate}) and returns its index at
   * {@code home}, built.
   */
  static HybridIndex indexed(Path tree, Path home, Random random, String[] words,
      String longLineTail) throws IOException {
    generate(Files.createDirectories(tree), random, words, longLineTail);
    HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(tree).home(home).build());
    index.refresh(RefreshOptions.INCREMENTAL);
    return index;
  }

  /**
   * Writes one random tree below {@code tree}.
   *
   * @param words what lines are made of
   * @param longLineTail what follows the 51 300 {@code q}s of a very long line
   */
  static void generate(Path tree, Random random, String[] words, String longLineTail)
      throws IOException {
    int files = 10 + random.nextInt(30);
    for (int f = 0; f < files; f++) {
      String dir = switch (random.nextInt(4)) {
        case 0 -> "";
        case 1 -> "src/";
        case 2 -> "src/deep/";
        default -> "Docs/ü/";
      };
      String name = dir + "f" + f + (random.nextBoolean() ? ".txt" : ".java");
      StringBuilder sb = new StringBuilder();
      int lines = random.nextInt(40);
      String eol = random.nextInt(4) == 0 ? "\r\n" : "\n";
      for (int l = 0; l < lines; l++) {
        int count = random.nextInt(8);
        for (int w = 0; w < count; w++) {
          sb.append(words[random.nextInt(words.length)]);
          sb.append(random.nextInt(3) == 0 ? "" : " ");
        }
        if (random.nextInt(30) == 0) {
          sb.append("\rmid"); // a lone CR inside a line
        }
        if (random.nextInt(200) == 0) {
          sb.append("q".repeat(51_300)).append(longLineTail); // longer than the scanner's line cap
        }
        sb.append(eol);
      }
      if (random.nextInt(5) == 0) {
        sb.append("last line without newline");
        if (random.nextBoolean()) {
          sb.append('\r');
        }
      }
      byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
      if (random.nextInt(8) == 0 && bytes.length > 4) {
        bytes[random.nextInt(bytes.length)] = (byte) 0xC3; // malformed UTF-8
      }
      TestRepos.writeBytes(tree, name, bytes);
    }
  }
}
