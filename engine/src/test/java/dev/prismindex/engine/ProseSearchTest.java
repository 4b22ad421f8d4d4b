package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lexical search for prose: a description finds the definition whatever the words' inflection. */
class ProseSearchTest {

  private static final String[] FILLER = {"checksum", "socket", "thread", "pixel", "font",
      "timer", "locale", "ledger"};

  @TempDir Path root;

  /** Unrelated definitions, so that document frequencies mean something. */
  private void filler() throws Exception {
    for (String word : FILLER) {
      write(root, "src/" + word + "/Util.java", "package " + word + ";\n\n"
          + "public class Util {\n"
          + "  /** Computes the " + word + " of a block. */\n"
          + "  public int " + word + "(byte[] block) {\n"
          + "    return block.length * 31; // " + word + "\n"
          + "  }\n"
          + "}\n");
    }
  }

  private List<String> paths(HybridIndex index, String query) throws Exception {
    return index.search(query, SearchOpts.lexical(5)).stream().map(Hit::path).toList();
  }

  @Test
  void aSingularQueryFindsTheDefinitionDescribedInThePlural() throws Exception {
    filler();
    write(root, "src/Rows.java", """
        package store;

        public class Rows {
          /** Removes the expired entries from this table. */
          public void purge(long now) {
            rows.deleteIf(row -> row.deadline() < now);
          }
        }
        """);
    write(root, "src/Layout.java", """
        package store;

        public class Layout {
          /** Draws a table: every table cell is padded to the table width. */
          public void draw(Grid grid) {
            grid.pad(width);
          }
        }
        """);
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      // "Removes ... entries" in the doc comment, "remove ... entry" in the query: only "table" is
      // shared word for word, and the other definition has it three times.
      assertThat(paths(index, "remove each entry from the table")).first()
          .isEqualTo("src/Rows.java");
    }
  }

  @Test
  void aPluralQueryFindsTheDefinitionDescribedInTheSingular() throws Exception {
    filler();
    write(root, "src/Cache.java", """
        package store;

        public class Cache {
          /** Remove the entry stored under a key. */
          public void evict(String key) {
            slots.delete(key);
          }
        }
        """);
    write(root, "src/Keys.java", """
        package store;

        public class Keys {
          /** Lists every key stored under a prefix, key by key. */
          public List<String> list(String prefix) {
            return store.scan(prefix);
          }
        }
        """);
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(paths(index, "removes the entries stored under a key")).first()
          .isEqualTo("src/Cache.java");
    }
  }
}
