package dev.prismindex.model.code;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Pins the embedding path (a tokenizer writing into a reused buffer, a vocabulary looked up by
 * characters) to the one it replaced (a string per token looked up in a map, {@link
 * ReferenceTokenizer}): the same tokens and bit for bit the same vectors of the shipped model, on
 * this module's sources and on generated text full of the tokenizer's edge cases.
 */
class EmbeddingPinTest {

  private static final CodeModel MODEL = CodeEmbedder.model();

  @Test
  void tokensAndVectorsEqualTheReferenceOnSources() throws IOException {
    List<String> texts = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src"))) {
      for (Path p : files.filter(Files::isRegularFile)
          .filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".txt")).toList()) {
        String text = Files.readString(p, StandardCharsets.UTF_8);
        texts.add(text);
        // Chunk-sized windows too, so that the code side's token cap cuts in many places.
        for (int i = 0; i + 600 < text.length(); i += 450) {
          texts.add(text.substring(i, i + 600));
        }
      }
    }
    assertThat(texts).hasSizeGreaterThan(50);
    for (String t : texts) {
      assertSame(t);
    }
  }

  @Test
  void tokensAndVectorsEqualTheReferenceOnEdgeCases() {
    // Case changes, digits, separators, plural and verb endings, non-ASCII letters and digits,
    // surrogate pairs, words at and over the length limits.
    String[] parts = {"a", "B", "x", "Z", "e", "s", "ies", "ied", "sses", "xes", "ches", "shes",
        "zes", "us", "is", "ing", "ed", "nn", "ll", "pp", "HTTP", "Json", "XMLHttp", "_", "$",
        "0", "7", "12345", "é", "É", "ß", "İ", "Σ", "ς", "٣", "𝔸", "中", " ", ".", "\n",
        "(",
        "-", "value", "Parse", "entr", "stopp", "runn", "ad", "cop", "class", "match", "creat",
        "get", "Set", "_id", "$ref", "utf8", "sha256", "x".repeat(38), "Y".repeat(41)};
    Random random = new Random(38);
    for (int n = 0; n < 10_000; n++) {
      StringBuilder b = new StringBuilder();
      int k = 1 + random.nextInt(12);
      for (int i = 0; i < k; i++) {
        b.append(parts[random.nextInt(parts.length)]);
      }
      assertSame(b.toString());
    }
    assertSame("");
    // Every character of the first three pages, and characters from all over the BMP.
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x300; c++) {
      all.append(c).append(c).append('a').append(c).append('B').append(' ');
    }
    assertSame(all.toString());
    for (int n = 0; n < 2_000; n++) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < 24; i++) {
        b.append(random.nextInt(4) == 0 ? (char) random.nextInt(0x10000)
            : parts[random.nextInt(parts.length)]);
      }
      assertSame(b.toString());
    }
    assertSame("parseJsonValue parse_json_value ParseJSONValue entries copied classes");
  }

  private static void assertSame(String text) {
    List<String> expected = new ArrayList<>();
    ReferenceTokenizer.tokens(text, Integer.MAX_VALUE, expected::add);
    assertThat(CodeTokenizer.tokens(text)).as(text).isEqualTo(expected);
    for (boolean query : new boolean[] {false, true}) {
      float[] actual = MODEL.embed(text, query);
      float[] vector = reference(text, query);
      if (!Arrays.equals(actual, vector)) { // bit for bit; the assertion shows where
        assertThat(actual).as(text).containsExactly(vector);
      }
    }
  }

  private static final Map<String, Integer> IDS = new HashMap<>();

  static {
    for (int id = 0; id < MODEL.vocabulary(); id++) {
      IDS.put(MODEL.ids.token(id), id);
    }
  }

  /** {@code CodeModel.embed} as it was, on the reference tokenizer and a map of the tokens. */
  private static float[] reference(String text, boolean query) {
    CodeModel m = MODEL;
    float[] weight = query ? m.queryWeight : m.codeWeight;
    float[] scale = query ? m.queryScale : m.codeScale;
    float[] rows = query ? m.queryRows : m.codeRows; // the int8 cells, exactly
    int[][] found = {new int[64]};
    int[] n = {0};
    ReferenceTokenizer.tokens(text, query ? Integer.MAX_VALUE : m.maxTokens, token -> {
      Integer id = IDS.get(token);
      if (id != null) {
        if (n[0] == found[0].length) {
          found[0] = Arrays.copyOf(found[0], n[0] * 2);
        }
        found[0][n[0]++] = id;
      }
    });
    int[] sorted = found[0];
    Arrays.sort(sorted, 0, n[0]);
    int d = m.dimension;
    float[] acc = new float[d];
    for (int i = 0; i < n[0]; ) {
      int t = sorted[i];
      int j = i + 1;
      while (j < n[0] && sorted[j] == t) {
        j++;
      }
      float f = (j - i) * weight[t] * scale[t];
      int base = t * d;
      for (int k = 0; k < d; k++) {
        acc[k] += f * (byte) rows[base + k];
      }
      i = j;
    }
    double sum = 0;
    for (float v : acc) {
      sum += (double) v * v;
    }
    if (sum > 0) {
      float inv = (float) (1.0 / Math.sqrt(sum));
      for (int k = 0; k < d; k++) {
        acc[k] *= inv;
      }
    }
    return acc;
  }
}
