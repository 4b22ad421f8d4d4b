package dev.prismindex.opensearch;

import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DebugTmpTest {
  @Test
  void debug(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("src"));
    Files.writeString(root.resolve("src/Main.java"), "class Main {\n  // findme here\n}\n");
    OpenSearchOptions o = TestCluster.options(root).build();
    try (OpenSearchIndex idx = OpenSearchIndex.open(o); Cluster c = Cluster.connect(o)) {
      System.out.println("RUN " + idx.refresh(false));
      System.out.println("DOCS " + c.call("POST", "/" + o.indexName() + "/_search", Map.of(), "{\"query\":{\"match_all\":{}}}"));
      System.out.println("WILD " + c.call("POST", "/" + o.indexName() + "/_search", Map.of(), "{\"query\":{\"wildcard\":{\"content\":{\"value\":\"*findme*\",\"case_insensitive\":true}}}}"));
      System.out.println("LIT " + idx.searchResult("findme", new SearchOpts(10, SearchMode.INDEXED_LITERAL, null)));
      System.out.println("LEX " + idx.searchResult("findme", new SearchOpts(10, SearchMode.LEXICAL, null)));
      System.out.println("HYB " + idx.searchResult("main class", new SearchOpts(10, SearchMode.HYBRID, null)));
      System.out.println("STATUS " + idx.status());
    }
  }
}
