package dev.prismindex.model.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The model this module ships: it loads, it is found by id, and it ranks by meaning. */
class ShippedModelTest {

  private final Embedder embedder = EmbedderProvider.find(CodeEmbedderProvider.ID).orElseThrow()
      .create();

  @Test
  void loadsTheResourceAndNamesIt() {
    assertThat(embedder.id()).isEqualTo("prism-code-v1-t1");
    assertThat(embedder.dimension()).isEqualTo(256);
    CodeModel m = CodeEmbedder.model();
    assertThat(m.name).isEqualTo(embedder.id());
    assertThat(m.dimension).isEqualTo(embedder.dimension());
    assertThat(m.vocabulary()).isGreaterThan(5_000);
    assertThat(List.of("pars", "json", "return", "fil")).allSatisfy(
        t -> assertThat(m.ids.id(t)).isNotNegative());
  }

  @Test
  void isDeterministicAndAtUnitLength() {
    String text = "path: src/a.ts\nsymbol: parse json\nexport function parseJson(s) { }";
    float[] a = embedder.embed(List.of(text)).get(0);
    float[] b = embedder.embed(List.of("other text first", text)).get(1);
    assertThat(a).containsExactly(b);
    assertThat(norm(a)).isCloseTo(1.0, Offset.offset(1e-5));
    assertThat(norm(embedder.embedQuery("parse a json document"))).isCloseTo(1.0,
        Offset.offset(1e-5));
    assertThat(embedder.embedQuery("parse json")).containsExactly(
        embedder.embedQuery("parse json"));
    // No known token: the zero vector, which matches nothing.
    assertThat(embedder.embed(List.of("")).get(0)).containsOnly(0f);
  }

  @Test
  void relatedDocAndCodeScoreAboveUnrelated() throws IOException {
    List<String[]> pairs = sanityPairs();
    assertThat(pairs).hasSizeGreaterThanOrEqualTo(8);
    List<float[]> codes = embedder.embed(pairs.stream().map(p -> p[1]).toList());
    int top = 0;
    double related = 0;
    double unrelated = 0;
    for (int i = 0; i < pairs.size(); i++) {
      float[] q = embedder.embedQuery(pairs.get(i)[0]);
      double own = dot(q, codes.get(i));
      boolean best = true;
      for (int j = 0; j < pairs.size(); j++) {
        if (j != i) {
          double other = dot(q, codes.get(j));
          unrelated += other / (pairs.size() - 1);
          best &= own > other;
        }
      }
      related += own;
      top += best ? 1 : 0;
    }
    assertThat(top).as("queries whose own code ranks first").isGreaterThanOrEqualTo(
        pairs.size() - 1);
    assertThat(related / pairs.size()).isGreaterThan(unrelated / pairs.size() + 0.1);
  }

  private static List<String[]> sanityPairs() throws IOException {
    String text;
    try (InputStream in = ShippedModelTest.class.getResourceAsStream("sanity-pairs.txt")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String[]> out = new ArrayList<>();
    StringBuilder code = null;
    String query = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("## ")) {
        if (query != null) {
          out.add(new String[] {query, code.toString()});
        }
        query = line.substring(3);
        code = new StringBuilder();
      } else if (query != null) {
        code.append(line).append('\n');
      }
    }
    out.add(new String[] {query, code.toString()});
    return out;
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static double norm(float[] v) {
    return Math.sqrt(dot(v, v));
  }
}
