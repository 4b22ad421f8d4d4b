package dev.prismindex.engine.internal.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.chunk.EmbedText.Variant;
import dev.prismindex.engine.spi.Chunk;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the model sees for a chunk, per variant. */
class EmbedTextTest {

  private static final Chunk METHOD = new Chunk(10, 13,
      List.of(new Chunk.Symbol("getEntryCount", 11)), "HashMap_Node",
      "  /** Counts. */\n  public int getEntryCount() {\n    return entry_count + MAX_SIZE;\n  }");

  @Test
  void theDefaultIsAContextHeaderThenTheTextWithIdentifiersSplitThenTheOriginal() {
    assertThat(EmbedText.of("src/util/HashMap.java", METHOD, Variant.CONTEXT_SPLIT)).isEqualTo("""
        path: src/util/HashMap.java
        in: hash map node
        symbol: get entry count
        signature: public int getEntryCount() {
          /** Counts. */
          public int get entry count() {
            return entry count + max size;
          }
          /** Counts. */
          public int getEntryCount() {
            return entry_count + MAX_SIZE;
          }""");
    assertThat(EmbedText.of("a.java", METHOD, EmbedText.VARIANT))
        .isEqualTo(EmbedText.of("a.java", METHOD, Variant.CONTEXT_SPLIT));
  }

  @Test
  void otherVariantsForMeasuring() {
    assertThat(EmbedText.of("a.java", METHOD, Variant.RAW)).isEqualTo(METHOD.text());
    assertThat(EmbedText.of("a.java", METHOD, Variant.SIGNATURE)).isEqualTo(
        "path: a.java\nin: hash map node\nsymbol: get entry count\n"
            + "signature: public int getEntryCount() {");
    assertThat(EmbedText.of("a.java", METHOD, Variant.CONTEXT))
        .startsWith("path: a.java\n").endsWith("\n" + METHOD.text());
    assertThat(Variant.parse("context-split")).isEqualTo(Variant.CONTEXT_SPLIT);
    assertThat(Variant.parse("RAW")).isEqualTo(Variant.RAW);
    assertThat(Variant.parse("nonsense")).isEqualTo(Variant.CONTEXT_SPLIT);
  }

  @Test
  void aWindowWithoutItsHeaderHasNoSignatureAndALongTextIsNotRepeated() {
    String body = "    callSomething(x);\n".repeat(60);
    Chunk window = new Chunk(100, 159, List.of(new Chunk.Symbol("run_all", 40)), null, body);
    String text = EmbedText.of("lib.rs", window, Variant.CONTEXT_SPLIT);
    assertThat(text).startsWith("path: lib.rs\nsymbol: run all\n    call something(x);")
        .doesNotContain("signature:", "callSomething");
  }

  @Test
  void identifiersSplitIntoWords() {
    assertThat(EmbedText.words("JoinHandle<T>")).isEqualTo("join handle t");
    assertThat(EmbedText.words("HTTPServer2")).isEqualTo("http server2");
    assertThat(EmbedText.splitIdentifiers("__init__(self, max_len) parseURL x"))
        .isEqualTo("__init__(self, max len) parse url x");
  }

  @Test
  void theSignatureLineIsCountedAsStringLinesCountsLines() {
    java.util.Random random = new java.util.Random(16);
    String alphabet = "ab \r\n\t";
    for (int round = 0; round < 2000; round++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(12); i > 0; i--) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      List<String> lines = text.toString().lines().toList();
      for (int index = -1; index <= lines.size() + 1; index++) {
        String expected = index >= 0 && index < lines.size() ? lines.get(index) : null;
        assertThat(EmbedText.line(text.toString(), index)).as("[%s] line %d", text, index)
            .isEqualTo(expected);
      }
    }
  }
}
