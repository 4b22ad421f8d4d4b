package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.embed.testing.FakeEmbedder;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model sees each chunk with its context: path, enclosing type, symbol words, signature. */
class EmbedContextTest {

  @TempDir Path root;

  @Test
  void chunksAreEmbeddedWithTheirContextAndQueriesAsTheyAre() throws Exception {
    write(root, "src/util/Counter.java", """
        package util;

        public class Counter {
          private int count;

          /** Returns the number of entries. */
          public int getEntryCount() {
            return count;
          }
        }
        """);
    Set<String> seen = ConcurrentHashMap.newKeySet();
    FakeEmbedder model = TestEmbedders.fake().tokenizer(text -> {
      seen.add(text);
      return FakeEmbedder.words(text);
    });
    try (HybridIndex index = TestRepos.open(root, model)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(seen).anySatisfy(t -> assertThat(t).startsWith("""
          path: src/util/Counter.java
          in: counter
          symbol: get entry count
          signature: public int getEntryCount() {
            /** Returns the number of entries. */
            public int get entry count() {"""));
      seen.clear();
      List<Hit> hits = index.search("number of entries", SearchOpts.semantic(5));
      assertThat(hits).isNotEmpty();
      assertThat(seen).contains("number of entries");
    }
  }
}
