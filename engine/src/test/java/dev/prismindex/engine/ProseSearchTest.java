package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lexical search for prose: a description finds the definition whatever the words' inflection. */
class ProseSearchTest {

  @TempDir Path root;

  private void corpus() throws Exception {
    write(root, "src/Table.java", """
        package store;

        public class Table {
          /** Removes the expired entries from this table. */
          public void purge(long now) {
            for (Row row : rows) {
              if (row.deadline() < now) {
                rows.delete(row);
              }
            }
          }
        }
        """);
    write(root, "src/TablePrinter.java", """
        package store;

        public class TablePrinter {
          /** Prints the table, one row a line. */
          public void printTable(Table table) {
            for (Row row : table.rows()) {
              System.out.println(row);
            }
          }
        }
        """);
    write(root, "src/Cache.java", """
        package store;

        public class Cache {
          /** Remove the entry stored under a key. */
          public void evict(String key) {
            slots.delete(key);
          }
        }
        """);
  }

  private List<String> paths(HybridIndex index, String query) throws Exception {
    return index.search(query, SearchOpts.lexical(5)).stream().map(Hit::path).toList();
  }

  @Test
  void aSingularQueryFindsTheDefinitionDescribedInThePlural() throws Exception {
    corpus();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      // The words are "Removes ... entries" in the doc comment, "remove ... entry" in the query.
      assertThat(paths(index, "remove an expired entry of the table")).first()
          .isEqualTo("src/Table.java");
      assertThat(paths(index, "remove each entry from the table")).first()
          .isEqualTo("src/Table.java");
    }
  }

  @Test
  void aPluralQueryFindsTheDefinitionDescribedInTheSingular() throws Exception {
    corpus();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      // "Remove the entry" in the doc comment, "removes entries" in the query.
      assertThat(paths(index, "removes the entries kept under a key")).first()
          .isEqualTo("src/Cache.java");
    }
  }
}
