package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.index.PrismIndexException;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library opens in five lines, and its default mode is the command line's (issue 39, item
 * 7): {@code HybridIndex.open(root)}, {@code refresh()} and {@code search(query)} answer in
 * hybrid mode when the model can search the index's vectors, else lexical, and
 * {@code SearchOpts.builder()} without a mode chooses the same way. And the engine's errors share
 * one base, {@link PrismIndexException}, each with its code.
 */
class DefaultModeTest {

  @TempDir Path root;

  @BeforeEach
  void setUp() throws Exception {
    write(root, "src/Duration.java", """
        /** Parses durations such as 5s or 2m. */
        final class Duration {
          static long parseDuration(String text) {
            return Long.parseLong(text.substring(0, text.length() - 1)) * 1000;
          }
        }
        """);
    write(root, "README.md", "# Demo\n\nParses durations.\n");
  }

  @Test
  void fiveLinesSearchInHybridModeWithTheDefaultModel() throws Exception {
    List<Hit> hits;
    try (HybridIndex index = HybridIndex.open(root)) {   // the test's default model: a fake one
      index.refresh();
      hits = index.search("parse duration");
      assertThat(index.defaultMode()).isEqualTo(SearchMode.HYBRID);
      assertThat(index.searchResult("parse duration", SearchOpts.builder().limit(3).build())
          .mode()).isEqualTo(SearchMode.HYBRID);
    }
    assertThat(hits).isNotEmpty().allSatisfy(h -> assertThat(h.mode()).isEqualTo(
        SearchMode.HYBRID));
    assertThat(hits.get(0).path()).isEqualTo("src/Duration.java");
    assertThat(root.resolve(".prism-index")).isDirectory();
  }

  @Test
  void withoutAModelOrWithoutVectorsTheDefaultIsLexical() throws Exception {
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).semantic(false)
        .build())) {
      index.refresh();
      assertThat(index.defaultMode()).isEqualTo(SearchMode.LEXICAL);
      assertThat(index.search("parse duration")).isNotEmpty().allSatisfy(h ->
          assertThat(h.mode()).isEqualTo(SearchMode.LEXICAL));
    }
    Path other = Files.createDirectories(root.resolve("../other-" + root.getFileName()));
    write(other, "a.txt", "parse duration\n");
    try (HybridIndex index = HybridIndex.open(other)) {
      index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false)); // a model, no vectors yet
      assertThat(index.defaultMode()).isEqualTo(SearchMode.LEXICAL);
      assertThat(index.searchResult("parse", SearchOpts.builder().build()).mode())
          .isEqualTo(SearchMode.LEXICAL);
    }
  }

  @Test
  void theAutomaticModeRefusesCaseSensitivity() {
    assertThatThrownBy(() -> SearchOpts.builder().caseSensitive(true).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("automatic (hybrid or lexical)");
  }

  @Test
  void theEnginesErrorsShareOneBaseWithCodes() throws IOException {
    List<PrismIndexException> errors = List.of(
        new CorruptIndexException(root, new IOException("checksum failed")),
        new IncompatibleIndexException("format", "1", "2"),
        new IndexLockedException(root, new IOException("held")),
        IndexLockedException.readOnly(root, new IOException("read-only file system")),
        new SemanticSearchUnavailableException());
    assertThat(errors).extracting(PrismIndexException::code).containsExactly(
        "ERR_PRISM_INDEX_CORRUPT", "ERR_PRISM_INDEX_INCOMPATIBLE", "ERR_PRISM_INDEX_LOCKED",
        "ERR_PRISM_INDEX_READ_ONLY", "ERR_PRISM_SEMANTIC_UNAVAILABLE");
    assertThat(errors).allSatisfy(e -> assertThat(e).isInstanceOf(IOException.class));
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).semantic(false)
        .build())) {
      index.refresh();
      assertThatThrownBy(() -> index.search("x", SearchOpts.semantic(1)))
          .isInstanceOf(PrismIndexException.class)
          .isInstanceOf(SemanticSearchUnavailableException.class);
    }
  }
}
