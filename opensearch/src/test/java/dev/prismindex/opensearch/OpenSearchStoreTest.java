package dev.prismindex.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.embed.HashingEmbedder;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.index.IndexState;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine over a cluster index ({@link OpenSearchStore}): runs, scoping, freshness and refusals,
 * on the two-node test cluster.
 */
class OpenSearchStoreTest {

  @TempDir
  Path tmp;

  private Path repo(String name) throws IOException {
    Path root = tmp.resolve(name);
    Files.createDirectories(root);
    return root;
  }

  private static void write(Path root, String path, String text) throws IOException {
    Path p = root.resolve(path);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private static List<String> paths(List<Hit> hits) {
    return hits.stream().map(h -> h.path() + ":" + h.line()).toList();
  }

  @Test
  void twoRepositoriesInOneClusterNeverSeeEachOthersFiles() throws IOException {
    Path a = repo("a");
    Path b = repo("b");
    write(a, "src/Shared.java", "class Shared {\n  void alphaWidget() {}\n}\n");
    write(b, "src/Shared.java", "class Shared {\n  void betaGadget() {}\n}\n");
    OpenSearchStore sa = OpenSearchStore.connect(a, OpenSearchOptions.builder(TestCluster.url(0))
        .shards(2).build());
    OpenSearchStore sb = OpenSearchStore.connect(b, OpenSearchOptions.builder(TestCluster.url(0))
        .shards(2).build());
    try (HybridIndex ia = HybridIndex.open(TestCluster.local(a), sa);
        HybridIndex ib = HybridIndex.open(TestCluster.local(b), sb)) {
      ia.refresh(RefreshOptions.INCREMENTAL);
      ib.refresh(RefreshOptions.INCREMENTAL);
      for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID,
          SearchMode.INDEXED_LITERAL)) {
        SearchOpts opts = new SearchOpts(10, mode, null);
        assertThat(ia.search("betaGadget", opts)).allSatisfy(
            h -> assertThat(h.snippet()).doesNotContain("betaGadget"));
        assertThat(ib.search("alphaWidget", opts)).allSatisfy(
            h -> assertThat(h.snippet()).doesNotContain("alphaWidget"));
        if (mode == SearchMode.LEXICAL || mode == SearchMode.INDEXED_LITERAL) {
          assertThat(ia.search("betaGadget", opts)).isEmpty();
          assertThat(paths(ia.search("alphaWidget", opts))).containsExactly("src/Shared.java:2");
          assertThat(paths(ib.search("betaGadget", opts))).containsExactly("src/Shared.java:2");
        }
      }
      assertThat(sa.indexName()).isNotEqualTo(sb.indexName())
          .isEqualTo(OpenSearchOptions.defaultIndexName(a));
      sa.drop();
      sb.drop();
    }
  }

  @Test
  void theDefaultIndexNameDiffersPerRepositoryRoot() throws IOException {
    Path one = repo("worktree-one");
    Path two = repo("worktree-two");
    assertThat(OpenSearchOptions.defaultIndexName(one))
        .startsWith("prism-worktree-one-")
        .isNotEqualTo(OpenSearchOptions.defaultIndexName(two));
    assertThat(OpenSearchOptions.defaultIndexName(one))
        .isEqualTo(OpenSearchOptions.defaultIndexName(tmp.resolve("worktree-one")));
  }

  @Test
  void aRunSendsOnlyWhatChangedAndEveryChangeIsSearchableWhenItReturns() throws IOException {
    Path root = repo("r");
    write(root, "a.py", "def parse_duration(text):\n    return int(text)\n");
    write(root, "b.py", "def render_table(rows):\n    return rows\n");
    write(root, "c.py", "def obsolete_helper():\n    pass\n");
    try (HybridIndex idx = TestCluster.open(root)) {
      IndexRunStats first = idx.refresh(RefreshOptions.INCREMENTAL);
      assertThat(first.added()).isEqualTo(3);
      write(root, "b.py", "def draw_grid(cells):\n    return cells\n");
      Files.delete(root.resolve("c.py"));
      write(root, "d.py", "def fresh_function():\n    pass\n");
      IndexRunStats second = idx.refresh(RefreshOptions.INCREMENTAL);
      assertThat(second.added()).isEqualTo(1);
      assertThat(second.changed()).isEqualTo(1);
      assertThat(second.deleted()).isEqualTo(1);
      assertThat(second.unchanged()).isEqualTo(1);
      SearchOpts lexical = new SearchOpts(10, SearchMode.LEXICAL, null);
      assertThat(paths(idx.search("draw_grid", lexical))).containsExactly("b.py:1");
      assertThat(idx.search("render_table", lexical)).isEmpty();
      assertThat(idx.search("obsolete_helper", lexical)).isEmpty();
      assertThat(paths(idx.search("fresh_function", lexical))).containsExactly("d.py:1");
      assertThat(idx.status().state()).isEqualTo(IndexState.READY);
      assertThat(idx.status().diagnostics().entries()).isEqualTo(3);
      IndexRunStats third = idx.refresh(RefreshOptions.INCREMENTAL);
      assertThat(third.unchanged()).isEqualTo(3);
      assertThat(third.added() + third.changed() + third.deleted()).isZero();
    }
  }

  @Test
  void anInterruptedRunLeavesTheIndexStaleAndTheNextRunCompletesIt() throws IOException {
    Path root = repo("interrupted");
    write(root, "a.py", "def first_function():\n    pass\n");
    OpenSearchOptions o = TestCluster.options().build();
    try (HybridIndex idx = TestCluster.open(root, o); Cluster c = Cluster.connect(o)) {
      assertThat(idx.status().state()).isEqualTo(IndexState.EMPTY);
      idx.refresh(RefreshOptions.INCREMENTAL);
      assertThat(idx.status().state()).isEqualTo(IndexState.READY);
      // A run that died after recording "writing", and left a chunk beyond a file's count.
      Slice slice = new Slice(o.indexName(), o.repositoryName(root));
      c.call("POST", slice.url("_update/" + slice.id(ClusterIds.META)),
          slice.routed(java.util.Map.of("refresh", "true")), "{\"doc\":{\"state\":\"writing\"}}");
      c.call("PUT", slice.url("_doc/" + slice.id(ClusterIds.chunk("a.py", 7))),
          slice.routed(java.util.Map.of("refresh", "true")), "{\"type\":\"chunk\","
              + "\"repo\":\"" + slice.repository() + "\",\"path\":\"a.py\","
              + "\"chunk_id\":\"a.py#7\",\"ordinal\":7,\"start_line\":1,\"end_line\":1,"
              + "\"language\":\"python\",\"symbols\":[],\"body\":\"orphan_marker\"}");
      assertThat(idx.status().state()).isEqualTo(IndexState.STALE);
      assertThat(idx.search("orphan_marker", new SearchOpts(5, SearchMode.LEXICAL, null)))
          .as("a stale chunk still yields a hit checked against the file").hasSize(1);

      IndexRunStats again = idx.refresh(RefreshOptions.INCREMENTAL);
      assertThat(again.hashed()).as("a resumed run re-reads every file").isEqualTo(1);
      assertThat(idx.status().state()).isEqualTo(IndexState.READY);
      assertThat(idx.search("orphan_marker", new SearchOpts(5, SearchMode.LEXICAL, null)))
          .as("the resumed run swept the chunk the interrupted one left").isEmpty();
      assertThat(paths(idx.search("first_function", new SearchOpts(5, SearchMode.LEXICAL, null))))
          .containsExactly("a.py:1");
    }
  }

  @Test
  void oddFilesAreLeftOutOrIndexedAsLocallyAndASkippedFileComesBackWhenItBecomesText()
      throws IOException {
    Path root = repo("odd");
    Path outside = tmp.resolve("outside.txt");
    Files.writeString(outside, "outside_secret_marker\n");
    Files.createSymbolicLink(root.resolve("link.txt"), outside);
    Files.write(root.resolve("bin.dat"), new byte[] {'b', 'i', 'n', 0, 0, 'x', 'y', 'z', 0, 1});
    // Over maxFileBytes (4096), within the exact-search cap: literal search only (issue 39).
    write(root, "big.txt", "huge_file_marker\n" + "x".repeat(8192));
    Files.write(root.resolve("latin1.txt"), "caf\u00e9 latin_one_marker\n"
        .getBytes(StandardCharsets.ISO_8859_1));
    write(root, "dir with space/\u00fcn\u00ef.py", "def zebra_quokka():\n    pass\n");
    HybridIndexOptions local = HybridIndexOptions.builder(root).embedder(new HashingEmbedder())
        .maxFileBytes(4096).build();
    OpenSearchOptions o = OpenSearchOptions.builder(TestCluster.url(0))
        .indexName(TestCluster.newIndexName()).shards(2).replicas(1).build();
    SearchOpts literal = new SearchOpts(10, SearchMode.INDEXED_LITERAL, null);
    try (HybridIndex idx = OpenSearchStore.openIndex(local, o)) {
      IndexRunStats first = idx.refresh(RefreshOptions.INCREMENTAL);
      assertThat(first.added()).isEqualTo(3);
      assertThat(idx.search("outside_secret_marker", literal)).isEmpty();
      assertThat(paths(idx.search("huge_file_marker", literal))).containsExactly("big.txt:1");
      assertThat(idx.search("huge_file_marker", new SearchOpts(10, SearchMode.LEXICAL, null)))
          .isNotEmpty().noneMatch(h -> h.path().equals("big.txt")); // "marker" ranks latin1.txt
      assertThat(idx.search("xyz", literal)).isEmpty();
      assertThat(paths(idx.search("latin_one_marker", literal))).containsExactly("latin1.txt:1");
      assertThat(paths(idx.search("zebra_quokka", new SearchOpts(5, SearchMode.LEXICAL,
          null)))).containsExactly("dir with space/\u00fcn\u00ef.py:1");
      assertThat(idx.status().diagnostics().entries()).isEqualTo(3);

      Files.writeString(root.resolve("bin.dat"), "now_text_marker\n");
      IndexRunStats second = idx.refresh(RefreshOptions.INCREMENTAL);
      assertThat(second.added()).isEqualTo(1);
      assertThat(paths(idx.search("now_text_marker", literal))).containsExactly("bin.dat:1");
      assertThat(idx.status().diagnostics().entries()).isEqualTo(4);
    }
  }

  @Test
  void aHitIsCheckedAgainstTheWorkingTreeBeforeItIsReturned() throws IOException {
    Path root = repo("fresh");
    write(root, "m.go", "package m\n\nfunc Checksum(data []byte) uint32 {\n\treturn 0\n}\n");
    write(root, "gone.go", "package m\n\nfunc Vanishing() {}\n");
    try (HybridIndex idx = TestCluster.open(root)) {
      idx.refresh(RefreshOptions.INCREMENTAL);
      // Moved down by three lines and a file deleted, without a refresh.
      write(root, "m.go", "package m\n\n// a\n// b\n// c\nfunc Checksum(data []byte) uint32 {\n"
          + "\treturn 0\n}\n");
      Files.delete(root.resolve("gone.go"));
      SearchOpts lexical = new SearchOpts(10, SearchMode.LEXICAL, null);
      assertThat(paths(idx.search("Checksum", lexical))).containsExactly("m.go:6");
      assertThat(idx.search("Vanishing", lexical)).isEmpty();
      assertThat(idx.search("Vanishing", new SearchOpts(10, SearchMode.INDEXED_LITERAL, null)))
          .isEmpty();
    }
  }

  @Test
  void anIndexPinnedToAnotherModelIsRefusedForWritingAndSemanticSearch() throws IOException {
    Path root = repo("pinned");
    write(root, "x.rs", "fn checksum_bytes(data: &[u8]) -> u32 { 0 }\n");
    String name = TestCluster.newIndexName();
    try (HybridIndex idx = TestCluster.open(root, TestCluster.options().indexName(name).build())) {
      idx.refresh(RefreshOptions.INCREMENTAL);
    }
    HybridIndexOptions other = HybridIndexOptions.builder(root)
        .embedder(new HashingEmbedder(128)).build();
    try (HybridIndex idx = OpenSearchStore.openIndex(other, OpenSearchOptions.builder(
        TestCluster.url(0)).indexName(name).build())) {
      assertThatThrownBy(() -> idx.refresh(RefreshOptions.INCREMENTAL)).isInstanceOf(IncompatibleIndexException.class)
          .hasMessageContaining("embedding model");
      assertThatThrownBy(() -> idx.search("checksum", new SearchOpts(5, SearchMode.HYBRID, null)))
          .isInstanceOf(SemanticSearchUnavailableException.class)
          .hasMessageContaining("index was built with model");
      assertThat(idx.capabilities().semantic()).isFalse();
      assertThat(paths(idx.search("checksum_bytes", new SearchOpts(5, SearchMode.LEXICAL, null))))
          .containsExactly("x.rs:1");
    }
  }

  @Test
  void anUnreachableClusterIsAClearErrorAfterTheRetries() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    Path offline = repo("offline");
    OpenSearchOptions o = OpenSearchOptions.builder(URI.create("http://127.0.0.1:" + port))
        .retries(1).timeout(Duration.ofSeconds(2)).build();
    assertThatThrownBy(() -> OpenSearchStore.connect(offline, o))
        .isInstanceOf(ClusterUnavailableException.class)
        .hasMessageContaining("cannot reach the OpenSearch cluster at [http://127.0.0.1:" + port);
  }

  @Test
  void credentialsAreNeverPrintedAndNeverPartOfTheUrl() throws IOException {
    OpenSearchOptions o = OpenSearchOptions.builder(URI.create("https://search.example:9200"))
        .credentials("indexer", "s3cr3t-value").build();
    assertThat(o.toString()).doesNotContain("s3cr3t-value").contains("password=***");
    assertThatThrownBy(() -> OpenSearchOptions.builder(
        URI.create("https://indexer:s3cr3t@search.example:9200")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("credentials do not belong in the cluster URL")
        .hasMessageNotContaining("s3cr3t");
    assertThatThrownBy(() -> OpenSearchOptions.builder(URI.create("ftp://x")).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OpenSearchOptions.builder(URI.create("http://x"))
        .indexName("Bad Name").build()).isInstanceOf(IllegalArgumentException.class);
  }
}
