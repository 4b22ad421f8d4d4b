package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.engine.internal.NativeBuild;
import dev.prismindex.engine.internal.NativeLibrary;
import dev.prismindex.engine.internal.chunk.SourceLines;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The packed gram set gives exactly the grams {@link Grams} defines, common trigrams left out. */
class GramSetTest {

  @Test
  void packedGramsEqualStringGramsOnSeededRandomLines() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    String any = "aAbB_1 \t\u0130\u03a3\u00df\ud83d\ude00\ud800\ufffdxyz(){};";
    String ascii = "aAbBzZ_1 \t(){};@[`{\u007f"; // ASCII lines take the letter-by-letter path
    for (int round = 0; round < 200; round++) {
      String alphabet = round % 2 == 0 ? any : ascii;
      GramSet packed = new GramSet();
      Set<String> strings = new HashSet<>();
      int lines = r.nextInt(20);
      for (int l = 0; l < lines; l++) {
        StringBuilder sb = new StringBuilder();
        int len = r.nextInt(80);
        for (int i = 0; i < len; i++) {
          sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        packed.addLine(sb.toString());
        addLineGrams(sb.toString(), strings);
      }
      Set<String> decoded = new HashSet<>();
      char[] buf = new char[3];
      for (long g : packed.packed()) {
        decoded.add(new String(buf, 0, GramSet.decode(g, buf)));
      }
      assertThat(decoded).as("seed %d", seed).isEqualTo(strings);
      assertThat(packed.packed()).hasSize(strings.size());
      assertThat(packed.grams()).containsExactlyInAnyOrderElementsOf(strings);
    }
  }

  @Test
  void commonTrigramsAreLeftOutAndNothingElse() {
    GramSet grams = new GramSet();
    grams.addLine("    import java.util.Map; // IMPORT ion zqx");
    Set<String> out = new HashSet<>(grams.grams());
    assertThat(out).doesNotContain("   ", "imp", "ion").contains("zqx", "map", "il.");
    assertThat(Grams.isCommon("imp")).isTrue();
    assertThat(Grams.isCommon("zqx")).isFalse();
    Set<String> expected = new HashSet<>();
    addLineGrams("    import java.util.Map; // IMPORT ion zqx", expected);
    assertThat(out).isEqualTo(expected);
  }

  @Test
  void aQueryNeverRequiresACommonTrigramNorABigramInsideOne() {
    assertThat(Grams.queryGrams("import", false)).isEmpty();
    assertThat(Grams.queryGrams("IMPORT", true)).isEmpty();
    assertThat(Grams.queryGrams("im", false)).isEmpty(); // "imp" is common
    assertThat(Grams.queryGrams("zq", false)).containsExactly("zq");
    assertThat(Grams.queryGrams("importZqx", false)).contains("tzq", "zqx")
        .doesNotContain("imp", "mpo", "por", "ort");
    for (String common : Grams.common()) {
      assertThat(Grams.queryGrams(common, false)).as(common).isEmpty();
      assertThat(Grams.queryGrams(common.substring(1), false)).as(common).isEmpty();
    }
  }

  /** The definition, one {@code String} per gram: trigrams not common, the bigram of a 2-unit line. */
  private static void addLineGrams(String line, Set<String> out) {
    String lower = line.toLowerCase(java.util.Locale.ROOT);
    if (lower.length() == 2) {
      out.add(lower);
    }
    for (int i = 0; i + 3 <= lower.length(); i++) {
      String g = lower.substring(i, i + 3);
      if (!Grams.isCommon(g)) {
        out.add(g);
      }
    }
  }

  @Test
  void packsAGramAsTheSetPacksTheGramsOfALineAndSortsThem() {
    GramSet grams = new GramSet();
    grams.addLine("a\u00e9\ud83d\ude00\ud800x\u65e5\u672c Ab");
    grams.addLine("Xy");
    long[] expected = grams.grams().stream().mapToLong(GramSet::pack).sorted().toArray();
    assertThat(expected).hasSize(grams.packed().length);
    assertThat(grams.sortedGrams()).containsExactly(expected);
    assertThat(GramSet.pack("xy")).isEqualTo((2L << 48) | ((long) 'x' << 32) | ((long) 'y' << 16));
    assertThatThrownBy(() -> GramSet.pack("abcd")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void findsTheGramsOfAsciiFilesNativelyWhereTheLibraryIsBuilt() {
    assertThat(GramSet.nativeGrams()).as("grams natively")
        .isEqualTo(NativeBuild.built() && !NativeBuild.switchedOff());
    byte[] ascii = "class A {}\n".getBytes(StandardCharsets.US_ASCII);
    assertThat(GramSet.ofAsciiFile(ascii, ascii.length, "A.java") != null)
        .isEqualTo(GramSet.nativeGrams());
  }

  /**
   * When the native code cannot allocate the grams of a file, the file gets no native set (the
   * indexer's Java path, {@link GramSet#ofFile}, takes over) and the next file gets its native set
   * again: the process is not aborted and nothing is left in the thread's bitmap.
   */
  @Test
  void anAsciiFileWhoseNativeGramsRunOutOfMemoryGoesToTheJavaPath() {
    assumeTrue(GramSet.nativeGrams(), "the n-grams are found natively in this build only");
    byte[] ascii =
        "class A {\n  int size() { return 0; }\n}\n".getBytes(StandardCharsets.US_ASCII);
    GramSet expected = GramSet.ofAsciiFile(ascii, ascii.length, "A.java");
    assertThat(expected).isNotNull();
    NativeLibrary.failAllocationAfter(0);
    try {
      assertThat(GramSet.ofAsciiFile(ascii, ascii.length, "A.java")).isNull();
    } finally {
      assertThat(NativeLibrary.failAllocationAfter(-1)).as("the allocation was refused")
          .isNegative();
    }
    GramSet again = GramSet.ofAsciiFile(ascii, ascii.length, "A.java");
    assertThat(again).isNotNull();
    assertThat(again.sortedGrams()).containsExactly(expected.sortedGrams());
  }

  /**
   * The native grams of an ASCII file are those of its lines: seeded random texts with every line
   * ending (LF, CR LF, a lone CR, a last line with and without LF), lines of one, two and three
   * characters, capitals, control characters; sizes up to 60,000 bytes; the array longer than the
   * file, filled with bytes that are not ASCII; a file or path that is not ASCII in between. The
   * native grams come ascending, and each file's leave nothing behind for the next one's.
   */
  @Test
  void nativeGramsOfAnAsciiFileAreThoseOfItsLines() {
    if (!GramSet.nativeGrams()) {
      return; // no native library here: nothing to compare (the test above says why)
    }
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    String[] pieces = {"\n", "\r\n", "\r", "\n\n", "a", "Z", "ab", "AB", "xYz", " ", "\t", "\u0000",
        "\u007f", "_", "{", "}", "getBean", "HTTP", "@", "[", "`"};
    for (int round = 0; round < 300; round++) {
      StringBuilder text = new StringBuilder();
      int size = round % 10 == 0 ? 20_000 + r.nextInt(40_000) : r.nextInt(400);
      while (text.length() < size) {
        if (round % 10 == 0 && r.nextBoolean()) {
          text.append((char) (32 + r.nextInt(95))); // a wide alphabet: many distinct grams
        } else {
          text.append(pieces[r.nextInt(pieces.length)]);
        }
      }
      String t = text.toString();
      byte[] bytes = Arrays.copyOf(t.getBytes(StandardCharsets.US_ASCII), t.length() + r.nextInt(4));
      Arrays.fill(bytes, t.length(), bytes.length, (byte) 0xC3);
      String path = "src/Main" + round + ".java";
      GramSet fromBytes = GramSet.ofAsciiFile(bytes, t.length(), path);
      GramSet fromLines = GramSet.ofFile(SourceLines.split(t), path);
      assertThat(fromBytes).as("seed %d", seed).isNotNull();
      assertThat(fromBytes.sortedGrams()).as("seed %d, round %d", seed, round)
          .isEqualTo(sorted(fromLines.packed()));
      if (round % 7 == 0) {
        byte[] notAscii = (t + "\u00e9").getBytes(StandardCharsets.UTF_8);
        assertThat(GramSet.ofAsciiFile(notAscii, notAscii.length, path)).isNull();
        assertThat(GramSet.ofAsciiFile(bytes, t.length(), path + "\u00e9")).isNull();
      }
    }
  }

  /** The native call refuses arrays that do not have its bitmaps' lengths, before touching them. */
  @Test
  void theNativeCallRefusesBitmapsOfAnotherLength() {
    if (!GramSet.nativeGrams()) {
      return; // no native library here
    }
    byte[] text = "class A {}\n".getBytes(StandardCharsets.US_ASCII);
    byte[] path = "A.java".getBytes(StandardCharsets.US_ASCII);
    long[] common = new long[GramSet.GRAM_WORDS];
    long[] scratch = new long[GramSet.SCRATCH_WORDS];
    assertThat(GramSet.asciiGrams(text, text.length, path, common, scratch)).isNotEmpty();
    assertThatThrownBy(() -> GramSet.asciiGrams(text, text.length, path, common,
        new long[GramSet.SCRATCH_WORDS - 1])).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GramSet.asciiGrams(text, text.length, path,
        new long[GramSet.GRAM_WORDS / 2], scratch)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GramSet.asciiGrams(text, text.length + 1, path, common, scratch))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GramSet.asciiGrams(text, -1, path, common, scratch))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFileOrPathWithAByteBeyondAsciiIsLeftToTheJavaPath() {
    byte[] text = "caf\u00e9 = 1;\n".getBytes(StandardCharsets.UTF_8);
    assertThat(GramSet.ofAsciiFile(text, text.length, "a.py")).isNull();
    byte[] ascii = "cafe = 1;\n".getBytes(StandardCharsets.US_ASCII);
    assertThat(GramSet.ofAsciiFile(ascii, 0, "a.py") == null).isEqualTo(!GramSet.nativeGrams());
    assertThat(GramSet.ofAsciiFile(ascii, ascii.length, "caf\u00e9.py")).isNull();
  }

  private static long[] sorted(long[] keys) {
    long[] copy = keys.clone();
    Arrays.sort(copy);
    return copy;
  }
}
