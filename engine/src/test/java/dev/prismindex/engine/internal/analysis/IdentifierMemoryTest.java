package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.TextField;
import org.junit.jupiter.api.Test;

/**
 * A {@link ChunkTerms} that remembers its identifiers across texts ({@link IdentifierMemory})
 * gives every text the terms a new one gives it, also after the memory filled up and was
 * forgotten, several times over.
 */
class IdentifierMemoryTest {

  @Test
  void rememberedSplitsGiveTheTermsOfFreshOnes() throws IOException {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    String[] words = {"get", "Bean", "HTTP", "url", "Factory", "parse", "the", "and", "x", "ID",
        "running", "caf\u00e9", "v2", "_", "Map", "is", "stream", "JSON", "toString", "of"};
    ChunkTerms remembering = new ChunkTerms();
    int distinct = 0;
    for (int text = 0; text < 1000; text++) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 100; i++) {
        if (r.nextInt(3) == 0) {
          sb.append("unique").append(distinct++).append(words[r.nextInt(words.length)]);
        } else {
          sb.append(words[r.nextInt(words.length)]).append(words[r.nextInt(words.length)]);
        }
        sb.append(r.nextBoolean() ? " " : "(x);\n");
      }
      String t = sb.toString();
      ChunkTerms.CodeAndProse got = remembering.codeAndProse(t);
      ChunkTerms.CodeAndProse want = new ChunkTerms().codeAndProse(t);
      assertThat(tokens(got.code())).as("seed %d, text %d", seed, text)
          .isEqualTo(tokens(want.code()));
      assertThat(tokens(got.prose())).as("seed %d, text %d", seed, text)
          .isEqualTo(tokens(want.prose()));
      assertThat(tokens(remembering.code(t))).isEqualTo(tokens(want.code()));
    }
    assertThat(distinct).as("the memory was forgotten several times")
        .isGreaterThan(3 * IdentifierMemory.CAPACITY);
  }

  /**
   * One text with more distinct identifiers than the memory holds: it grows within the text (its
   * entries must stay valid until the text's terms are read) and is forgotten before the next.
   */
  @Test
  void aTextWithMoreIdentifiersThanTheMemoryHolds() throws IOException {
    StringBuilder big = new StringBuilder();
    for (int i = 0; i < 3 * IdentifierMemory.CAPACITY; i++) {
      big.append("getItem").append(i).append(i % 3 == 0 ? "Bean " : " ").append("the x ");
    }
    ChunkTerms remembering = new ChunkTerms();
    for (String t : List.of("warm up getBean", big.toString(), "getItem7 getBean the Item",
        big.toString())) {
      ChunkTerms.CodeAndProse got = remembering.codeAndProse(t);
      ChunkTerms.CodeAndProse want = new ChunkTerms().codeAndProse(t);
      assertThat(tokens(got.code())).isEqualTo(tokens(want.code()));
      assertThat(tokens(got.prose())).isEqualTo(tokens(want.prose()));
    }
  }

  /** The tokens, their frequencies and the field length. */
  private static List<String> tokens(CountedTerms terms) throws IOException {
    List<String> out = new ArrayList<>();
    FieldType type = TextField.TYPE_NOT_STORED;
    try (TokenStream s = terms.field("f", new FieldType(type)).tokenStream(null, null)) {
      // What the index writer reads: the term's bytes.
      TermToBytesRefAttribute term = s.getAttribute(TermToBytesRefAttribute.class);
      TermFrequencyAttribute freq = s.addAttribute(TermFrequencyAttribute.class);
      s.reset();
      while (s.incrementToken()) {
        out.add(term.getBytesRef().utf8ToString() + ":" + freq.getTermFrequency());
      }
      s.end();
      out.add("length " + ((CountedTerms.Stream) s).fieldLength());
    }
    return out;
  }
}
