package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ranked modes' path prior: tests rank below library source unless the query asks. */
class PathPriorSearchTest {

  @TempDir Path root;

  @BeforeEach
  void corpus() throws Exception {
    write(root, "toolz/headers.py", "def parse_header(line):\n"
        + "    \"\"\"Split a raw header line into its name and value.\"\"\"\n"
        + "    name, _, value = line.partition(':')\n"
        + "    return name.strip(), value.strip()\n");
    // The test names the function more often than the library does: BM25 ranks it first.
    write(root, "toolz/tests/test_headers.py", "from toolz.headers import parse_header\n\n"
        + "def test_parse_header():\n"
        + "    assert parse_header('header: value') == ('header', 'value')\n");
  }

  private static String top(HybridIndex index, String query, SearchMode mode, double weight)
      throws Exception {
    List<Hit> hits = index.search(query,
        SearchOpts.builder().mode(mode).limit(5).auxiliaryWeight(weight).build());
    return hits.isEmpty() ? "" : hits.get(0).path();
  }

  @Test
  void libraryFirstUnlessTheQueryAsksForTests() throws Exception {
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      // SEMANTIC shares the re-ordering; with the fake embedder it ranks the library first anyway.
      for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.HYBRID)) {
        assertThat(top(index, "parse header value", mode, 1.0)).as("%s, prior off", mode)
            .isEqualTo("toolz/tests/test_headers.py");
        assertThat(top(index, "parse header value", mode, 0.5)).as("%s", mode)
            .isEqualTo("toolz/headers.py");
        assertThat(top(index, "test parse header value", mode, 0.5)).as("%s, asks", mode)
            .isEqualTo("toolz/tests/test_headers.py");
      }
      assertThat(index.search("parse header value", SearchOpts.builder()
          .mode(SearchMode.HYBRID).pathScope("toolz/tests").build()).get(0).path())
          .isEqualTo("toolz/tests/test_headers.py");
    }
  }

  @Test
  void scoresFollowTheOrderThePriorGives() throws Exception {
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC,
          SearchMode.HYBRID)) {
        List<Hit> hits = index.search("parse header value",
            SearchOpts.builder().mode(mode).limit(5).build());
        assertThat(hits).as("%s", mode).hasSize(2);
        // The test file ranks second; its score says so (it used to keep its raw score: 1.0).
        assertThat(hits.get(1).path()).isEqualTo("toolz/tests/test_headers.py");
        assertThat(hits.get(1).score()).as("%s", mode).isLessThan(hits.get(0).score());
      }
    }
  }

  @Test
  void theWeightIsValidated() {
    for (double bad : new double[] {0, -0.5, 1.5, Double.NaN}) {
      assertThatThrownBy(() -> SearchOpts.builder().auxiliaryWeight(bad).build())
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auxiliaryWeight");
    }
  }
}
