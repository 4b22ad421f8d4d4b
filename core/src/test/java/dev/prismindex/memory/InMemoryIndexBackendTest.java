package dev.prismindex.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.HashingEmbedder;
import dev.prismindex.index.IndexErrorCode;
import dev.prismindex.index.IndexException;
import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.index.InMemoryIndex;
import dev.prismindex.index.IndexedRepositoryOperations;
import dev.prismindex.index.IndexedRepositoryOptions;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Behaviour of the in-memory index beyond the shared backend contract. */
class InMemoryIndexBackendTest {

  @TempDir
  Path root;

  private final MapContentSource source = new MapContentSource();

  private InMemoryIndexBackend backend() throws IOException {
    return InMemoryIndexBackend.builder(root).contentSource(source).build();
  }

  private static void update(InMemoryIndexBackend backend, String revision, String... paths)
      throws IOException {
    List<IndexFileChange> changes = new ArrayList<>();
    for (String path : paths) {
      changes.add(IndexFileChange.of(path, IndexFileChangeKind.ADD));
    }
    backend.update(IndexUpdateRequest.of(revision, changes));
  }

  private static IndexQueryResult literal(InMemoryIndexBackend backend, String query,
      @Nullable String scope, int max) {
    return backend.search(new IndexQuery(query, SearchMode.INDEXED_LITERAL, scope, max, false,
        AbortSignal.create(), 10_000));
  }

  private static List<String> paths(IndexQueryResult result) {
    return result.hits().stream().map(IndexSearchHit::path).toList();
  }

  // ------------------------------------------------------------------------ hash-skip

  @Test
  void unchangedContentIsSkippedByItsHash() throws IOException {
    source.put("a.txt", "alpha\n").put("b.txt", "beta\n");
    InMemoryIndexBackend backend = backend();
    update(backend, "r1", "a.txt", "b.txt");
    assertThat(backend.stats().filesIndexed()).isEqualTo(2);
    int segments = backend.stats().segments();

    update(backend, "r2", "a.txt", "b.txt");
    InMemoryIndex.Stats stats = backend.stats();
    assertThat(stats.filesUnchanged()).isEqualTo(2);
    assertThat(stats.filesIndexed()).isEqualTo(2);
    assertThat(stats.segments()).isEqualTo(segments);
    assertThat(backend.status().sourceRevision()).isEqualTo("r2");

    source.put("b.txt", "beta changed\n");
    update(backend, "r3", "a.txt", "b.txt");
    stats = backend.stats();
    assertThat(stats.filesUnchanged()).isEqualTo(3);
    assertThat(stats.filesIndexed()).isEqualTo(3);
    assertThat(stats.files()).isEqualTo(2);
    assertThat(paths(literal(backend, "changed", null, 10))).containsExactly("b.txt");
  }

  // ------------------------------------------------------------------------ order, tiers, paths

  @Test
  void contentAndPathMatchesComeFirstThenContentThenPathOnly() throws IOException {
    source.put("src/module-5/index.ts", "// module 5\n")
        .put("src/module-50/index.ts", "// module 50\n")
        .put("src/module-7/index.ts", "// module 7\n")
        .put("docs/notes.md", "see module-5 for details\n")
        .put("src/module-5/module-5.ts", "export const name = 'module-5';\n");
    InMemoryIndexBackend backend = backend();
    update(backend, "r1", "src/module-5/index.ts", "src/module-50/index.ts");
    update(backend, "r2", "src/module-7/index.ts", "docs/notes.md", "src/module-5/module-5.ts");

    IndexQueryResult result = literal(backend, "module-5", null, 10);
    assertThat(result.hits()).extracting(IndexSearchHit::path, IndexSearchHit::score,
            IndexSearchHit::line)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("src/module-5/module-5.ts", 1.0, 1),
            org.assertj.core.groups.Tuple.tuple("docs/notes.md", 0.75, 1),
            org.assertj.core.groups.Tuple.tuple("src/module-5/index.ts", 0.5, 0),
            org.assertj.core.groups.Tuple.tuple("src/module-50/index.ts", 0.5, 0));
    assertThat(result.hits().get(2).snippet()).isEqualTo("src/module-5/index.ts");
    assertThat(result.hits().get(1).column()).isEqualTo(5);
    assertThat(result.truncated()).isFalse();

    IndexQueryResult capped = literal(backend, "module-5", null, 3);
    assertThat(paths(capped)).containsExactly(
        "src/module-5/module-5.ts", "docs/notes.md", "src/module-5/index.ts");
    assertThat(capped.truncated()).isTrue();
  }

  @Test
  void shortQueriesAndScopesWorkAcrossSegments() throws IOException {
    InMemoryIndexBackend backend = backend();
    List<String> all = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      String path = (i % 3 == 0 ? "src" : i % 3 == 1 ? "src/deep" : "lib") + "/f" + i + ".txt";
      source.put(path, i % 7 == 0 ? "has Q here\n" : "nothing\n");
      all.add(path);
    }
    source.put("src", "a file named like the scope, q\n");
    all.add("src");
    for (int from = 0; from < all.size(); from += 7) {
      update(backend, "r" + from, all.subList(from, Math.min(all.size(), from + 7))
          .toArray(String[]::new));
    }
    assertThat(backend.stats().merges()).isPositive();
    IndexQueryResult q = literal(backend, "q", null, 1_000);
    long expected = all.stream().filter(p -> p.equals("src")
        || Integer.parseInt(p.replaceAll(".*/f(\\d+)\\.txt", "$1")) % 7 == 0).count();
    assertThat(q.hits()).hasSize((int) expected);
    assertThat(paths(literal(backend, "q", "src", 1_000)))
        .allMatch(p -> p.equals("src") || p.startsWith("src/")).contains("src");
    assertThat(paths(literal(backend, "q", "src/deep", 1_000))).allMatch(p -> p.startsWith("src/deep/"));
    assertThat(paths(literal(backend, "Q h", "lib", 1_000))).allMatch(p -> p.startsWith("lib/"));
    assertThat(paths(literal(backend, "zz", null, 10))).isEmpty();
  }

  @Test
  void aCommonOneCharacterQueryStopsAtTheCapInPathOrder() throws IOException {
    InMemoryIndexBackend backend = backend();
    List<String> all = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String path = String.format(java.util.Locale.ROOT, "f%03d.txt", i);
      source.put(path, i == 7 ? "nothing here\nline two has E\n" : "every line has an e\n");
      all.add(path);
    }
    update(backend, "r1", all.toArray(String[]::new));
    IndexQueryResult result = literal(backend, "E", null, 10);
    assertThat(paths(result)).containsExactlyElementsOf(all.subList(0, 10));
    assertThat(result.truncated()).isTrue();
    assertThat(result.hits().get(7).line()).isEqualTo(1);
    assertThat(result.hits().get(7).column()).isEqualTo(10);
    assertThat(literal(backend, "E", "f007.txt", 10).hits()).singleElement()
        .satisfies(hit -> assertThat(hit.line()).isEqualTo(1));
  }

  @Test
  void aRenameSentDirectlyMovesTheFile() throws IOException {
    source.put("old.txt", "moving\n");
    InMemoryIndexBackend backend = backend();
    update(backend, "r1", "old.txt");
    source.files.remove("old.txt");
    source.put("new.txt", "moving\n");
    backend.update(IndexUpdateRequest.of("r2", List.of(IndexFileChange.rename("old.txt", "new.txt"))));
    assertThat(paths(literal(backend, "moving", null, 10))).containsExactly("new.txt");
    assertThat(backend.stats().files()).isEqualTo(1);
  }

  // ------------------------------------------------------------------------ failures

  @Test
  void aFailingContentSourceFailsTheIndexUntilAnUpdateSucceeds() throws IOException {
    source.put("a.txt", "alpha\n").put("b.txt", "beta\n");
    InMemoryIndexBackend backend = backend();
    update(backend, "r1", "a.txt");
    source.failing.put("b.txt", true);

    assertThatThrownBy(() -> update(backend, "r2", "a.txt", "b.txt"))
        .isInstanceOf(IOException.class).hasMessageContaining("disk on fire");
    assertThat(backend.status().state()).isEqualTo(IndexState.FAILED);
    assertThat(backend.status().sourceRevision()).isEqualTo("r1");
    assertThat(backend.stats().failedUpdates()).isEqualTo(1);
    // the failed batch changed nothing: the snapshot is still r1's
    assertThat(paths(literal(backend, "beta", null, 10))).isEmpty();

    IndexedRepositoryOperations composite = IndexedRepositoryOperations.create(root,
        IndexedRepositoryOptions.builder(backend, RepositoryOperations.local(RepositoryLimits.defaults()))
            .allowedModes(EnumSet.allOf(SearchMode.class)).build());
    assertThatThrownBy(() -> composite.search(RepositorySearchRequest.builder(root, "alpha")
        .mode(SearchMode.INDEXED_LITERAL).build()))
        .isInstanceOfSatisfying(IndexException.class,
            e -> assertThat(e.code()).isEqualTo(IndexErrorCode.ERR_PRISM_INDEX_FAILED));

    source.failing.clear();
    update(backend, "r3", "b.txt");
    assertThat(backend.status().state()).isEqualTo(IndexState.READY);
    assertThat(backend.status().sourceRevision()).isEqualTo("r3");
    assertThat(paths(literal(backend, "beta", null, 10))).containsExactly("b.txt");
    assertThat(composite.search(RepositorySearchRequest.builder(root, "alpha")
        .mode(SearchMode.INDEXED_LITERAL).build()).matches()).hasSize(1);
  }

  @Test
  void theCompositeServesIndexedLiteralAndSemanticAndRefusesLexicalAndHybrid() throws IOException {
    source.put("a.txt", "alpha beta\n");
    InMemoryIndexBackend backend = backend();
    update(backend, "r1", "a.txt");
    assertThat(backend.capabilities().modes())
        .containsExactlyInAnyOrder(SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC);
    IndexedRepositoryOperations composite = IndexedRepositoryOperations.create(root,
        IndexedRepositoryOptions.builder(backend, RepositoryOperations.local(RepositoryLimits.defaults()))
            .allowedModes(EnumSet.allOf(SearchMode.class)).build());

    for (SearchMode served : List.of(SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC)) {
      assertThat(composite.search(RepositorySearchRequest.builder(root, "alpha")
          .mode(served).build()).matches()).as(served.wireName()).hasSize(1);
    }
    assertThatThrownBy(() -> composite.search(RepositorySearchRequest.builder(root, "alpha")
        .mode(SearchMode.LEXICAL).build()))
        .isInstanceOfSatisfying(IndexException.class,
            e -> assertThat(e.code()).isEqualTo(IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED))
        .hasMessage("search mode lexical is not supported by this index backend");
    assertThatThrownBy(() -> composite.search(RepositorySearchRequest.builder(root, "alpha")
        .mode(SearchMode.HYBRID).build()))
        .isInstanceOfSatisfying(IndexException.class,
            e -> assertThat(e.code()).isEqualTo(IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED))
        .hasMessage("search mode hybrid is not supported by this index backend");
  }

  @Test
  void anEmbedderFailureFailsTheUpdate() throws IOException {
    source.put("a.txt", "alpha\n");
    Embedder broken = new Embedder() {
      @Override
      public String id() {
        return "broken";
      }

      @Override
      public int dimension() {
        return 16;
      }

      @Override
      public List<float[]> embed(List<String> texts) {
        return List.of(new float[3]);
      }
    };
    InMemoryIndexBackend backend =
        InMemoryIndexBackend.builder(root).contentSource(source).embedder(broken).build();
    assertThatThrownBy(() -> update(backend, "r1", "a.txt"))
        .isInstanceOf(IllegalStateException.class);
    assertThat(backend.status().state()).isEqualTo(IndexState.FAILED);
    assertThat(backend.status().diagnostics().entries()).isZero();
  }

  @Test
  void badRequestsAreRejectedWithoutChangingTheState() throws IOException {
    InMemoryIndexBackend backend = backend();
    assertThatThrownBy(() -> update(backend, "r1", "../escape.txt"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> update(backend, "r1", "a//b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> backend.update(IndexUpdateRequest.of("", List.of())))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> backend.remove(IndexRemoveRequest.of(List.of("/abs"))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(backend.status().state()).isEqualTo(IndexState.EMPTY);
  }

  @Test
  void disposeReleasesEverythingAndLaterCallsFailClearly() throws IOException {
    source.put("a.txt", "alpha\n");
    InMemoryIndexBackend backend = backend();
    update(backend, "r1", "a.txt");
    backend.dispose();
    backend.dispose();
    for (Runnable call : List.<Runnable>of(
        () -> literal(backend, "alpha", null, 10),
        backend::status,
        backend::stats,
        () -> backend.remove(IndexRemoveRequest.of(List.of("a.txt"))),
        () -> backend.remove(IndexRemoveRequest.of(List.of())))) {
      assertThatThrownBy(call::run).isInstanceOf(IllegalStateException.class)
          .hasMessage("the in-memory index is disposed");
    }
    assertThatThrownBy(() -> update(backend, "r2", "a.txt"))
        .isInstanceOf(IllegalStateException.class).hasMessage("the in-memory index is disposed");
  }

  // ------------------------------------------------------------------------ abort

  @Test
  void anAbortedSignalStopsBothModes() throws IOException {
    for (int i = 0; i < 3_000; i++) {
      source.put("f" + i + ".txt", "needle " + i + "\n");
    }
    AtomicReference<AbortSignal> toAbort = new AtomicReference<>();
    HashingEmbedder hashing = new HashingEmbedder(64);
    Embedder aborting = new Embedder() {
      @Override
      public String id() {
        return "aborting";
      }

      @Override
      public int dimension() {
        return 64;
      }

      @Override
      public List<float[]> embed(List<String> texts) {
        return hashing.embed(texts);
      }

      @Override
      public float[] embedQuery(String query) {
        AbortSignal signal = toAbort.get();
        if (signal != null) {
          signal.abort(); // aborted after the search started: the scan loop must notice
        }
        return hashing.embedQuery(query);
      }
    };
    InMemoryIndexBackend backend =
        InMemoryIndexBackend.builder(root).contentSource(source).embedder(aborting).build();
    update(backend, "r1", source.files.keySet().toArray(String[]::new));

    assertThatThrownBy(() -> backend.search(new IndexQuery("needle", SearchMode.INDEXED_LITERAL,
        null, 10, false, AbortSignal.aborted(), 10_000)))
        .isInstanceOf(CancellationException.class);
    AbortSignal midway = AbortSignal.create();
    toAbort.set(midway);
    assertThatThrownBy(() -> backend.search(new IndexQuery("needle 12", SearchMode.SEMANTIC,
        null, 10, false, midway, 10_000)))
        .isInstanceOf(CancellationException.class);
    toAbort.set(null);
    assertThat(backend.search(new IndexQuery("needle 12", SearchMode.SEMANTIC, null, 10, false,
        AbortSignal.create(), 10_000)).hits()).isNotEmpty();
  }

  // ------------------------------------------------------------------------ semantic

  @Test
  void semanticRanksTheLexicallyClosestFileFirstWithItsBestLine() throws IOException {
    source.put("src/parser/JsonParser.java",
            "package parser;\n\nclass JsonParser {\n  Value parseJsonValue(String text) {}\n}\n")
        .put("src/http/HttpServer.java", "class HttpServer {\n  void serveRequest() {}\n}\n")
        .put("docs/readme.md", "How to parse json values in this project.\n")
        .put("empty.txt", "");
    InMemoryIndexBackend backend = backend();
    update(backend, "r1", "src/parser/JsonParser.java", "src/http/HttpServer.java",
        "docs/readme.md", "empty.txt");
    IndexQueryResult result = backend.search(new IndexQuery("parse json value",
        SearchMode.SEMANTIC, null, 10, false, AbortSignal.create(), 10_000));
    assertThat(result.hits()).isNotEmpty();
    IndexSearchHit first = result.hits().get(0);
    assertThat(first.path()).isIn("src/parser/JsonParser.java", "docs/readme.md");
    assertThat(first.line()).isPositive();
    assertThat(result.hits()).allSatisfy(hit -> assertThat(hit.score()).isBetween(0.0, 1.0));
    assertThat(result.hits()).extracting(IndexSearchHit::score).isSortedAccordingTo(
        (a, b) -> Double.compare(b, a));
    assertThat(paths(result)).doesNotContain("empty.txt");

    IndexQueryResult scoped = backend.search(new IndexQuery("parse json value",
        SearchMode.SEMANTIC, "src", 1, false, AbortSignal.create(), 10_000));
    assertThat(paths(scoped)).containsExactly("src/parser/JsonParser.java");
    assertThat(scoped.truncated()).isEqualTo(result.hits().stream()
        .filter(h -> h.path().startsWith("src/")).count() > 1);

    IndexQueryResult again = backend.search(new IndexQuery("parse json value",
        SearchMode.SEMANTIC, null, 10, false, AbortSignal.create(), 10_000));
    assertThat(again).isEqualTo(result);
  }

  // ------------------------------------------------------------------------ default content source

  @Test
  void theDefaultSourceDropsLinksBinaryAndOversizeFiles() throws IOException {
    Path outside = Files.createTempDirectory("prism-outside");
    try {
      Files.writeString(outside.resolve("secret.txt"), "needle outside\n");
      Files.writeString(root.resolve("plain.txt"), "needle inside\n");
      Files.write(root.resolve("binary.bin"), new byte[] {'n', 'e', 'e', 'd', 'l', 'e', 0});
      Files.writeString(root.resolve("big.txt"), "needle " + "x".repeat(200));
      Files.createSymbolicLink(root.resolve("link.txt"), outside.resolve("secret.txt"));
      Files.createSymbolicLink(root.resolve("linkdir"), outside);
      InMemoryIndexBackend backend = InMemoryIndexBackend.builder(root).maxFileBytes(100).build();
      update(backend, "r1", "plain.txt", "binary.bin", "big.txt", "link.txt",
          "linkdir/secret.txt", "missing.txt");
      assertThat(paths(literal(backend, "needle", null, 10))).containsExactly("plain.txt");
      assertThat(backend.stats().filesDropped()).isEqualTo(5);
      assertThat(backend.status().diagnostics().entries()).isEqualTo(1);
    } finally {
      Files.deleteIfExists(outside.resolve("secret.txt"));
      Files.deleteIfExists(outside);
    }
  }

  @Test
  void statusReportsEntriesBytesAndTimes() throws IOException {
    source.put("a.txt", "alpha\n");
    long[] now = {1_000};
    InMemoryIndexBackend backend =
        InMemoryIndexBackend.builder(root).contentSource(source).clock(() -> now[0]).build();
    assertThat(backend.status().state()).isEqualTo(IndexState.EMPTY);
    update(backend, "r1", "a.txt");
    now[0] = 2_000;
    backend.remove(IndexRemoveRequest.of(List.of("a.txt")));
    var status = backend.status();
    assertThat(status.updatedAt()).isEqualTo(1_000);
    assertThat(status.diagnostics().lastUpdatedAt()).isEqualTo(2_000);
    assertThat(status.diagnostics().entries()).isZero();
    assertThat(status.state()).isEqualTo(IndexState.READY);
    assertThat(backend.stats().updates()).as("a remove is no update").isEqualTo(1);
    source.put("b.txt", "b".repeat(1000));
    update(backend, "r2", "b.txt");
    assertThat(backend.status().diagnostics().bytes()).isGreaterThan(1000);
    assertThat(backend.stats().contentBytes()).isEqualTo(1000);
    assertThat(new String(source.files.get("b.txt"), StandardCharsets.UTF_8)).hasSize(1000);
  }
}
