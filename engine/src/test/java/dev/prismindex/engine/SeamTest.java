package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RepositoryIndexBackend mapping of HybridIndex. */
class SeamTest {

  @TempDir Path root;

  private static IndexQuery literal(String q, int max) {
    return new IndexQuery(q, SearchMode.INDEXED_LITERAL, null, max, false, AbortSignal.create(),
        30_000);
  }

  @Test
  void updateIndexesExactlyTheListedPathsAndRecordsTheRevision() throws Exception {
    write(root, "a.txt", "alpha needle\n");
    write(root, "b.txt", "beta needle\n");
    try (HybridIndex index = TestRepos.open(root)) {
      assertThat(index.status().state()).isEqualTo(IndexState.EMPTY);
      index.update(IndexUpdateRequest.of("rev-1",
          List.of(IndexFileChange.of("a.txt", IndexFileChangeKind.ADD))));
      IndexStatus s = index.status();
      assertThat(s.state()).isEqualTo(IndexState.READY);
      assertThat(s.sourceRevision()).isEqualTo("rev-1");
      assertThat(s.updatedAt()).isNotNull();
      assertThat(s.diagnostics().entries()).isEqualTo(1);
      assertThat(s.diagnostics().bytes()).isPositive();
      IndexQueryResult r = index.search(literal("needle", 10));
      assertThat(r.hits()).extracting(IndexSearchHit::path).containsExactly("a.txt");
      IndexSearchHit hit = r.hits().get(0);
      assertThat(hit.line()).isEqualTo(1);
      assertThat(hit.column()).isEqualTo(7);
      assertThat(hit.snippet()).isEqualTo("alpha needle");
      assertThat(hit.score()).isEqualTo(1.0);

      // A listed path that vanished is a delete; a delete-only batch still records its revision.
      Files.delete(root.resolve("a.txt"));
      index.update(IndexUpdateRequest.of("rev-2",
          List.of(IndexFileChange.of("a.txt", IndexFileChangeKind.EDIT),
              IndexFileChange.of("b.txt", IndexFileChangeKind.ADD))));
      assertThat(index.search(literal("needle", 10)).hits()).extracting(IndexSearchHit::path)
          .containsExactly("b.txt");
      index.update(IndexUpdateRequest.of("rev-3",
          List.of(IndexFileChange.of("b.txt", IndexFileChangeKind.DELETE))));
      assertThat(index.status().sourceRevision()).isEqualTo("rev-3");
      assertThat(index.search(literal("needle", 10)).hits()).isEmpty();
    }
  }

  @Test
  void updateOfANamedPathFollowsTheDirectoryRule() throws Exception {
    write(root, "src/main/java/org/x/target/T.java", "class T { String s = \"needle\"; }\n");
    write(root, "module/build/B.java", "class B { String s = \"needle\"; }\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.update(IndexUpdateRequest.of("rev-1", List.of(
          IndexFileChange.of("src/main/java/org/x/target/T.java", IndexFileChangeKind.ADD),
          IndexFileChange.of("module/build/B.java", IndexFileChangeKind.ADD))));
      assertThat(index.search(literal("needle", 10)).hits()).extracting(IndexSearchHit::path)
          .containsExactly("src/main/java/org/x/target/T.java");
      assertThat(index.status().diagnostics().entries()).isEqualTo(1);
    }
  }

  @Test
  void removeDropsPathsAndTruncationIsReported() throws Exception {
    for (int i = 0; i < 5; i++) {
      write(root, "f" + i + ".txt", "needle " + i + "\n");
    }
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      IndexQueryResult capped = index.search(literal("needle", 2));
      assertThat(capped.hits()).extracting(IndexSearchHit::path).containsExactly("f0.txt",
          "f1.txt");
      assertThat(capped.truncated()).isTrue();
      assertThat(index.search(literal("needle", 5)).truncated()).isFalse();
      index.remove(IndexRemoveRequest.of(List.of("f0.txt", "f1.txt")));
      index.remove(IndexRemoveRequest.of(List.of()));
      assertThat(index.search(literal("needle", 10)).hits()).extracting(IndexSearchHit::path)
          .containsExactly("f2.txt", "f3.txt", "f4.txt");
      assertThat(index.status().diagnostics().entries()).isEqualTo(3);
    }
  }

  @Test
  void semanticIsRefusedWhenOffAndPathsAreChecked() throws Exception {
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).semantic(false).build())) {
      assertThat(index.capabilities().semantic()).isFalse();
      assertThatThrownBy(() -> index.search(new IndexQuery("x", SearchMode.SEMANTIC, null, 5,
          false, AbortSignal.create(), 1000)))
          .isInstanceOf(SemanticSearchUnavailableException.class);
      assertThatThrownBy(() -> index.update(IndexUpdateRequest.of("r",
          List.of(IndexFileChange.of("../escape.txt", IndexFileChangeKind.ADD)))))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> index.remove(IndexRemoveRequest.of(List.of("/abs"))))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void failedWriteReportsFailedUntilTheNextSuccess() throws Exception {
    write(root, "a.txt", "needle\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      Path lucene = root.resolve(".prism-index/lucene");
      // Make the directory read-only so the next commit fails (skipped when running as root).
      boolean readOnly = lucene.toFile().setWritable(false, false);
      try {
        write(root, "b.txt", "needle too\n");
        boolean failed;
        try {
          index.refresh(RefreshOptions.INCREMENTAL);
          failed = false;
        } catch (Exception e) {
          failed = true;
        }
        if (failed) {
          assertThat(index.status().state()).isEqualTo(IndexState.FAILED);
          assertThat(index.search(literal("needle", 10)).hits()).hasSize(1);
        }
      } finally {
        lucene.toFile().setWritable(true, false);
      }
      assertThat(readOnly).isTrue();
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.status().state()).isEqualTo(IndexState.READY);
    }
  }

  @Test
  void theCompositeServesLexicalAndHybridOnlyWhereTheEngineDeclaresThem() throws Exception {
    write(root, "src/Parser.java", "class Parser { int parseDuration(String s) { return 1; } }\n");
    write(root, "src/Other.java", "class Other { void unrelated() {} }\n");
    for (boolean semantic : new boolean[] {true, false}) {
      HybridIndexOptions.Builder b = HybridIndexOptions.builder(root)
          .home(root.resolve(".prism-index-" + semantic))
          .embeddingCommitInterval(java.time.Duration.ZERO);
      try (HybridIndex index = HybridIndex.open(semantic ? b.embedder(TestEmbedders.fake()).build()
          : b.semantic(false).build())) {
        index.refresh(RefreshOptions.INCREMENTAL);
        assertThat(index.capabilities().answers(SearchMode.LEXICAL)).isTrue();
        assertThat(index.capabilities().answers(SearchMode.HYBRID)).isEqualTo(semantic);
        dev.prismindex.index.IndexedRepositoryOperations ops =
            dev.prismindex.index.IndexedRepositoryOperations.create(root,
                dev.prismindex.index.IndexedRepositoryOptions.builder(index,
                        dev.prismindex.repository.RepositoryOperations.local(
                            dev.prismindex.repository.RepositoryLimits.defaults()))
                    .allowedModes(java.util.EnumSet.allOf(SearchMode.class)).build());
        dev.prismindex.repository.RepositorySearchResult lexical = ops.search(
            dev.prismindex.repository.RepositorySearchRequest.builder(root, "parseDuration")
                .mode(SearchMode.LEXICAL).build());
        assertThat(lexical.matches()).extracting(m -> m.path()).containsExactly("src/Parser.java");
        if (semantic) {
          assertThat(ops.search(dev.prismindex.repository.RepositorySearchRequest
              .builder(root, "parseDuration").mode(SearchMode.HYBRID).build()).matches())
              .extracting(m -> m.path()).first().isEqualTo("src/Parser.java");
        } else {
          assertThatThrownBy(() -> ops.search(dev.prismindex.repository.RepositorySearchRequest
              .builder(root, "parseDuration").mode(SearchMode.HYBRID).build()))
              .isInstanceOfSatisfying(dev.prismindex.index.IndexException.class,
                  e -> assertThat(e.code()).isEqualTo(
                      dev.prismindex.index.IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED));
        }
      }
    }
  }
}
