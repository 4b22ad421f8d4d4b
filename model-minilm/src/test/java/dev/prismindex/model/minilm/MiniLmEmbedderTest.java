package dev.prismindex.model.minilm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderTest {

  private final Embedder embedder = new MiniLmEmbedderProvider().create();

  @Test
  void isFoundThroughServiceLoaderWithoutLoadingTheModel() {
    EmbedderProvider provider = EmbedderProvider.find("all-minilm-l6-v2-q-t64").orElseThrow();
    Embedder found = provider.create();
    assertThat(found.id()).isEqualTo("all-minilm-l6-v2-q-t64").isEqualTo(provider.id());
    assertThat(found.dimension()).isEqualTo(384);
    assertThat(EmbedderProvider.findDefault()).isPresent();
  }

  @Test
  void vectorsHaveTheDeclaredDimensionAndUnitLength() {
    List<float[]> vectors = embedder.embed(List.of("parse a duration string", "int x = 1;", ""));
    assertThat(vectors).hasSize(3);
    for (float[] v : vectors) {
      assertThat(v).hasSize(384);
      assertThat(norm(v)).isCloseTo(1.0, within(1e-4));
    }
  }

  @Test
  void relatedTextsAreCloserThanUnrelatedOnes() {
    List<float[]> v = embedder.embed(List.of(
        "read the configuration file from disk",
        "def load_config(path):\n    with open(path) as f:\n        return yaml.safe_load(f)",
        "render a bar chart of monthly sales"));
    assertThat(dot(v.get(0), v.get(1))).isGreaterThan(dot(v.get(0), v.get(2)));
  }

  @Test
  void embeddingIsDeterministicAndQueriesUseTheSameSpace() {
    float[] a = embedder.embed(List.of("stale index check")).get(0);
    float[] b = embedder.embedQuery("stale index check");
    assertThat(a).containsExactly(b);
  }

  @Test
  void loneSurrogatesAndBlankTextDoNotFail() {
    List<float[]> vectors = embedder.embed(List.of("bad \uD800 text", "   ", "emoji \uD83D\uDE00 ok"));
    assertThat(vectors).hasSize(3).allSatisfy(v -> assertThat(v).hasSize(384));
    assertThat(MiniLmEmbedder.sanitize("a\uDC00b")).isEqualTo("a\uFFFDb");
    assertThat(MiniLmEmbedder.sanitize("\uD83D\uDE00")).isEqualTo("\uD83D\uDE00");
    assertThat(MiniLmEmbedder.sanitize("")).isEqualTo(MiniLmEmbedder.BLANK_STAND_IN);
  }

  @Test
  void vectorsAreTheReferenceImplementationsWhateverTheBatch() {
    // langchain4j's own pipeline (one text per call, tokenized twice) is the reference the earlier
    // indexes were built with; our session gives the same vectors, alone or in any batch.
    var reference = new dev.langchain4j.model.embedding.onnx.allminilml6v2q
        .AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      sb.append("value").append(i).append(" = compute(value").append(i - 1).append(");\n");
    }
    String longText = sb.toString();
    List<String> texts = List.of("parse a duration string", longText,
        "int x = 1;", "public final class HashMap<K, V> extends AbstractMap<K, V>",
        "def load_config(path):\n    with open(path) as f:\n        return yaml.safe_load(f)",
        "fn spawn<T>(future: T) -> JoinHandle<T::Output>", "x");
    List<float[]> batch = embedder.embed(texts);
    for (int i = 0; i < texts.size(); i++) {
      float[] alone = embedder.embed(List.of(texts.get(i))).get(0);
      assertThat(batch.get(i)).as(texts.get(i)).containsExactly(alone);
      if (!texts.get(i).equals(longText)) { // cut at our cap; the reference's cap is 128
        float[] ref = reference.embed(texts.get(i)).content().vector();
        assertThat(dot(alone, ref) / norm(ref)).as(texts.get(i)).isGreaterThan(0.99999);
      }
    }
  }

  @Test
  void onlyTheFirstWordPiecesCount() {
    String words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi ";
    String longText = words.repeat(MiniLmEmbedder.MAX_TOKENS / 14 + 1);
    List<float[]> v = embedder.embed(List.of(longText, longText + "render a bar chart of sales",
        words));
    assertThat(v.get(1)).containsExactly(v.get(0));
    assertThat(dot(v.get(0), v.get(2))).isLessThan(0.9999);
  }

  @Test
  void wordPiecesOfAPrefixAreTheWholeTextsWordPieces() throws Exception {
    // Random texts of letters, digits, punctuation, accents (precomposed and combining), CJK,
    // emoji and every kind of whitespace, from empty to several times the prefix, and code.
    String[] pieces = {"a", "Zeta", "x1", "getValue", "snake_case", "é", "e\u0301", "中文",
        "\uD83D\uDE00", ".", "(", "::", "->", "\"", "0x7f", " ", " ", "  ", "\n", "\t", "\r\n",
        "\u00A0", "\u3000", "\u200B", "Ünïcödé", "ﬁ", "\u0000"};
    Random random = new Random(16);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      StringBuilder sb = new StringBuilder();
      int length = random.nextInt(MiniLmEmbedder.PREFIX_CHARS_PER_TOKEN
          * MiniLmEmbedder.MAX_TOKENS * 3);
      while (sb.length() < length) {
        sb.append(pieces[random.nextInt(pieces.length)]);
      }
      texts.add(MiniLmEmbedder.sanitize(sb.toString()));
    }
    for (int i = 0; i < 100; i++) { // about the prefix's length: short of the cap or just over
      texts.add("word ".repeat(i) + "x".repeat(random.nextInt(400)) + " tail".repeat(i));
    }
    texts.add("int value = compute(input);\n".repeat(60));
    try (HuggingFaceTokenizer whole = MiniLmEmbedder.loadTokenizer()) {
      int prefixFilled = 0;
      int prefixShort = 0;
      for (String text : texts) {
        assertThat(MiniLmEmbedder.wordPieces(text)).as(text)
            .containsExactly(whole.encode(text).getIds());
        int cut = MiniLmEmbedder.prefixEnd(text,
            MiniLmEmbedder.PREFIX_CHARS_PER_TOKEN * MiniLmEmbedder.MAX_TOKENS);
        if (cut > 0) {
          if (whole.encode(text.substring(0, cut)).getIds().length == MiniLmEmbedder.MAX_TOKENS) {
            prefixFilled++;
          } else {
            prefixShort++;
          }
        }
      }
      // Both ways are taken: the prefix alone, and the whole text after a prefix short of the cap.
      assertThat(prefixFilled).isGreaterThan(300);
      assertThat(prefixShort).isPositive();
    }
  }

  @Test
  void aPrefixEndsAtWhitespaceInItsSecondHalf() {
    assertThat(MiniLmEmbedder.prefixEnd("a b c", 10)).isEqualTo(-1);
    assertThat(MiniLmEmbedder.prefixEnd("abcdefgh ij", 10)).isEqualTo(8);
    assertThat(MiniLmEmbedder.prefixEnd("abcdefghijkl", 10)).isEqualTo(-1);
    assertThat(MiniLmEmbedder.prefixEnd("ab defghijkl", 10)).isEqualTo(-1);
    assertThat(MiniLmEmbedder.prefixEnd("abcdefghij\nkl", 10)).isEqualTo(10);
  }

  @Test
  void emptyBatchNeedsNoModel() {
    assertThat(embedder.embed(List.of())).isEmpty();
  }

  private static double norm(float[] v) {
    return Math.sqrt(dot(v, v));
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }
}
