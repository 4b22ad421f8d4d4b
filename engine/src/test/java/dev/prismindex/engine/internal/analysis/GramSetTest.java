package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.util.BytesRef;
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
  void theTokenStreamEmitsTheUtf8OfEachGramAsACharacterTermWould() throws Exception {
    GramSet grams = new GramSet();
    grams.addLine("aé😀\ud800x日本 Ab");
    Set<BytesRef> expected = new HashSet<>();
    char[] buf = new char[3];
    for (long g : grams.packed()) {
      expected.add(new BytesRef(new String(buf, 0, GramSet.decode(g, buf))));
    }
    Set<BytesRef> emitted = new HashSet<>();
    int tokens = 0;
    try (GramTokenStream ts = new GramTokenStream(grams)) {
      TermToBytesRefAttribute term = ts.getAttribute(TermToBytesRefAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        emitted.add(BytesRef.deepCopyOf(term.getBytesRef()));
        tokens++;
      }
    }
    assertThat(emitted).isEqualTo(expected); // lone surrogates become U+FFFD, as in a char term
    assertThat(tokens).isEqualTo(grams.packed().length);
  }
}
