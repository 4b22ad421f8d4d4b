package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/** The packed gram set gives exactly the grams of {@link Grams#addLineGrams}. */
class GramSetTest {

  @Test
  void packedGramsEqualStringGramsOnSeededRandomLines() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    String alphabet = "aAbB_1 \t\u0130\u03a3\u00df\ud83d\ude00\ud800\ufffdxyz(){};";
    for (int round = 0; round < 200; round++) {
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
        Grams.addLineGrams(sb.toString(), strings);
      }
      Set<String> decoded = new HashSet<>();
      char[] buf = new char[3];
      for (long g : packed.packed()) {
        decoded.add(new String(buf, 0, GramSet.decode(g, buf)));
      }
      assertThat(decoded).as("seed %d", seed).isEqualTo(strings);
      assertThat(packed.size()).isEqualTo(strings.size());
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
    assertThat(tokens).isEqualTo(grams.size());
  }
}
