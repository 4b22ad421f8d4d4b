package dev.prismindex.index;

import static dev.prismindex.index.IndexTestSupport.assertIndexError;
import static dev.prismindex.index.IndexTestSupport.composite;
import static dev.prismindex.index.IndexTestSupport.indexed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.internal.Utf8;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A hostile backend's hits: paths, scope, scores, locations, snippets, malformed results. */
class HitValidationTest {

  private final FakeBackend backend = new FakeBackend();

  private RepositorySearchResult serve(IndexSearchHit... hits) {
    backend.hits(hits);
    return composite(backend).search(indexed("q").build());
  }

  private void assertUntrusted(String message, IndexSearchHit... hits) {
    backend.hits(hits);
    assertIndexError(() -> composite(backend).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, message);
  }

  private static IndexSearchHit hit(String path) {
    return IndexSearchHit.of(path, 0.5, "snippet");
  }

  // --- paths

  @ParameterizedTest
  @ValueSource(strings = {"/etc/passwd", "/", "..", "../x", "a/../b", "a/..", "x/../..", "./a", ".",
      "a/.", "a/./b", "a//b", "a/", "//a", "a\\b", "..\\x", "C:\\x", "\\\\server\\share"})
  void pathsThatAreNotCanonicalAreOutsideTheRepository(String path) {
    assertUntrusted("index reported a path outside the repository", hit(path));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a\nsrc/x.ts:1:1:forged", "a\u0000b", "tab\tname", "del\u007f"})
  void emptyOrControlCharacterPathsAreInvalid(String path) {
    assertUntrusted("index reported an invalid path", hit(path));
  }

  @Test
  void aNullPathIsInvalid() {
    assertUntrusted("index reported an invalid path", new IndexSearchHit(null, 0.5, "s", 0, 0, 0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"..foo", "a/..b/c", "...", "a/b..", ".hidden/x", "dir.d/file", "ünï/cødé.txt"})
  void namesThatOnlyLookLikeDotSegmentsAreInside(String path) {
    assertThat(serve(hit(path)).matches()).extracting(RepositorySearchMatch::path).containsExactly(path);
  }

  @Test
  void oneBadHitFailsTheWholeQuery() {
    assertUntrusted("index reported a path outside the repository", hit("ok.txt"), hit("../escape"));
  }

  // --- containment on the file system (contract weakness 5: not only lexical checks)

  @Test
  void hitsWhosePathLeavesTheRootThroughASymlinkAreUntrusted(@TempDir Path tmp) throws IOException {
    Path root = Files.createDirectories(tmp.resolve("repo"));
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "secret");
    Files.createDirectories(root.resolve("src/inner"));
    Files.writeString(root.resolve("src/inner/a.txt"), "a");
    Files.createSymbolicLink(root.resolve("src/escape"), outside);
    Files.createSymbolicLink(root.resolve("src/leak.txt"), outside.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("src/dangling.txt"), outside.resolve("none.txt"));
    Files.createSymbolicLink(root.resolve("alias"), root.resolve("src/inner"));
    Files.createSymbolicLink(root.resolve("self.txt"), root.resolve("src/inner/a.txt"));
    Files.createSymbolicLink(root.resolve("loop1"), root.resolve("loop2"));
    Files.createSymbolicLink(root.resolve("loop2"), root.resolve("loop1"));
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(root,
        IndexedRepositoryOptions.builder(backend, new FakeFallback())
            .allowedModes(EnumSet.allOf(SearchMode.class)).build());

    for (String path : List.of("src/escape/secret.txt", "src/escape", "src/leak.txt",
        "src/dangling.txt", "src/escape/missing/deeper.txt", "loop1", "loop1/x.txt")) {
      backend.hits(hit("src/inner/a.txt"), hit(path));
      assertIndexError(() -> ops.search(RepositorySearchRequest.builder(root, "q")
              .mode(SearchMode.INDEXED_LITERAL).build()),
          IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED,
          "index reported a path outside the repository root");
    }
    // Links that stay inside the root, and paths that no longer exist (also below a segment that
    // is now a regular file: a stale hit, not an escape), are served.
    backend.hits(hit("src/inner/a.txt"), hit("alias/a.txt"), hit("self.txt"),
        hit("gone/x.txt"), hit("src/inner/gone.txt"), hit("src/inner/a.txt/x"));
    assertThat(ops.search(RepositorySearchRequest.builder(root, "q")
            .mode(SearchMode.INDEXED_LITERAL).build()).matches())
        .extracting(RepositorySearchMatch::path)
        .containsExactly("src/inner/a.txt", "alias/a.txt", "self.txt", "gone/x.txt",
            "src/inner/gone.txt", "src/inner/a.txt/x");
  }

  // --- scope

  @ParameterizedTest
  @CsvSource({"src,src", "src/,src", "./src,src", "././src//,src", "src//x,src/x", "src/./x,src/x"})
  void callerScopesAreNormalised(String requested, String expected) {
    composite(backend).search(indexed("q").path(requested).build());
    assertThat(backend.queries.get(0).scope()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "./", ".//", "./."})
  void rootScopesMeanTheWholeRepository(String requested) {
    backend.hits(hit("anywhere/a.txt"));
    RepositorySearchResult result = composite(backend).search(indexed("q").path(requested).build());
    assertThat(backend.queries.get(0).scope()).isNull();
    assertThat(result.matches()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/abs", "/", "..", "../x", "src/..", "src/../x", "src\\x", "a\nb", "a\u0000"})
  void invalidCallerScopesAreReportedAsTheCallersError(String requested) {
    assertIndexError(() -> composite(backend).search(indexed("q").path(requested).build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "requested path scope is invalid");
    assertThat(backend.queries).isEmpty();
  }

  @Test
  void hitsMustLieInTheScope() {
    backend.hits(hit("src"), hit("src/a.ts"), hit("src/deep/b.ts"));
    assertThat(composite(backend).search(indexed("q").path("src/").build()).matches())
        .extracting(RepositorySearchMatch::path).containsExactly("src", "src/a.ts", "src/deep/b.ts");

    for (String outside : List.of("srcx/a.ts", "sr", "other/src/a.ts", "lib/a.ts")) {
      backend.hits(hit("src/a.ts"), hit(outside));
      assertIndexError(() -> composite(backend).search(indexed("q").path("./src").build()),
          IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED,
          "index reported a result outside the requested path scope");
    }
  }

  // --- scores

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.001,
      1.0001, -1, 2, Double.MAX_VALUE, -Double.MIN_VALUE})
  void scoresOutsideZeroToOneAreInvalid(double score) {
    assertUntrusted("index reported an invalid score", IndexSearchHit.of("a.txt", score, "s"));
  }

  @Test
  void boundaryScoresAreServedAndNegativeZeroBecomesZero() {
    RepositorySearchResult result = serve(IndexSearchHit.of("a", 0.0, "s"),
        IndexSearchHit.of("b", 1.0, "s"), IndexSearchHit.of("c", -0.0, "s"));
    assertThat(result.matches()).extracting(RepositorySearchMatch::score)
        .containsExactly(0.0, 1.0, 0.0);
    assertThat(Double.doubleToRawLongBits(result.matches().get(2).score())).isZero();
  }

  // --- locations

  @ParameterizedTest
  @CsvSource({
      "0, 0, 0, 0, 0, 0",
      "3, 0, 0, 3, 3, 0",
      "3, 0, 5, 3, 3, 5",
      "3, 3, 1, 3, 3, 1",
      "3, 9, 2, 3, 9, 2",
      "1, 1, 1, 1, 1, 1"})
  void validLocationsArePassedThrough(int line, int endLine, int column,
      int servedLine, int servedEndLine, int servedColumn) {
    RepositorySearchMatch match =
        serve(new IndexSearchHit("a.txt", 0.5, "s", line, endLine, column)).matches().get(0);
    assertThat(new int[] {match.line(), match.endLine(), match.column()})
        .containsExactly(servedLine, servedEndLine, servedColumn);
  }

  @ParameterizedTest
  @CsvSource({
      "-1, 0, 0", "0, -1, 0", "0, 0, -1", "3, 2, 1", "5, 4, 0", "0, 4, 0", "0, 0, 4", "2, -3, 1",
      "2, 3, -1", "-2147483648, 0, 0"})
  void negativeInvertedOrLinelessLocationsAreInvalid(int line, int endLine, int column) {
    assertUntrusted("index reported an invalid location",
        new IndexSearchHit("a.txt", 0.5, "s", line, endLine, column));
  }

  // --- snippets

  @Test
  void aNullSnippetIsMalformed() {
    assertUntrusted("index reported a malformed result", new IndexSearchHit("a", 0.5, null, 0, 0, 0));
  }

  @Test
  void aLargeMultiByteSnippetIsCutOnACodePointBoundary() {
    String euros = "€".repeat(7_000); // 21 000 bytes, 3 bytes per char
    String text = serve(IndexSearchHit.of("a", 0.5, euros)).matches().get(0).text();
    assertThat(Utf8.byteLength(text)).isEqualTo(4_095);
    assertThat(text).isEqualTo("€".repeat(1_365));

    String emoji = "a" + "😀".repeat(5_000); // 20 001 bytes; each emoji is a surrogate pair
    String cut = serve(IndexSearchHit.of("a", 0.5, emoji)).matches().get(0).text();
    assertThat(cut).isEqualTo("a" + "😀".repeat(1_023)); // 1 + 4 092 bytes; one more would be 4 097
    assertThat(Character.isHighSurrogate(cut.charAt(cut.length() - 1))).isFalse();
  }

  @Test
  void theSnippetCapIsConfigurable() {
    backend.hits(IndexSearchHit.of("a", 0.5, "ab€€€€"));
    String text = composite(backend, b -> b.limits(IndexLimits.builder().maxSnippetBytes(10).build()))
        .search(indexed("q").build()).matches().get(0).text();
    assertThat(text).isEqualTo("ab€€");
  }

  @Test
  void aSnippetWithinTheCapIsKeptVerbatimIncludingNewlines() {
    String snippet = "line one\nsrc/x.ts:1:1:not a match";
    assertThat(serve(IndexSearchHit.of("a", 0.5, snippet)).matches().get(0).text()).isEqualTo(snippet);
  }

  // --- malformed results

  @Test
  void aNullResultIsMalformed() {
    backend.searchAnswer = query -> null;
    assertIndexError(() -> composite(backend).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a malformed result");
  }

  @Test
  void aNullHitListIsMalformed() {
    backend.searchAnswer = query -> new IndexQueryResult(null, true);
    assertIndexError(() -> composite(backend).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a malformed result");
  }

  @Test
  void aNullHitIsMalformed() {
    List<@Nullable IndexSearchHit> hits = new ArrayList<>(Arrays.asList(hit("a"), null));
    backend.searchAnswer = query -> new IndexQueryResult(hits, false);
    assertIndexError(() -> composite(backend).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a malformed result");
  }

  @Test
  void aHitListThatFailsToIterateIsMalformed() {
    List<@Nullable IndexSearchHit> broken = new java.util.AbstractList<>() {
      @Override
      public IndexSearchHit get(int index) {
        throw new IllegalStateException("secret list text");
      }

      @Override
      public int size() {
        return 2;
      }
    };
    backend.searchAnswer = query -> new IndexQueryResult(broken, false);
    IndexException error = assertIndexError(() -> composite(backend).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a malformed result");
    assertThat(error.getCause()).hasMessage("secret list text");
  }

  // --- the served match

  @Test
  void aServedMatchCarriesTheValidatedFields() {
    RepositorySearchResult result = serve(new IndexSearchHit("src/a.ts", 0.75, "const x = 1;", 4, 6, 7));
    assertThat(result.matches()).containsExactly(
        new RepositorySearchMatch("src/a.ts", 4, 6, 7, "const x = 1;", List.of(), List.of(), 0.75));
    assertThat(result.truncated()).isFalse();
    assertThat(result.truncatedBy()).isNull();
    assertThat(new long[] {result.scannedBytes(), result.scannedFiles(), result.scannedEntries(),
        result.filesSkippedBinary(), result.filesSkippedOversize()}).containsOnly(0L);
    assertThat(result.untrustedIndex()).isTrue();
  }

  // --- the path rules directly

  @Test
  void containmentComparesSegmentsNotStrings() {
    java.nio.file.Path root = IndexTestSupport.ROOT;
    assertThat(RelativePaths.isInside(root, "..foo")).isTrue();
    assertThat(RelativePaths.isInside(root, "a/..b")).isTrue();
    assertThat(RelativePaths.isInside(root, "../x")).isFalse();
    assertThat(RelativePaths.isInside(root, "..")).isFalse();
  }

  @Test
  void scopeMembershipIsSegmentWise() {
    assertThat(dev.prismindex.repository.RelativePath.isInScope(null, "any")).isTrue();
    assertThat(dev.prismindex.repository.RelativePath.isInScope("src", "src")).isTrue();
    assertThat(dev.prismindex.repository.RelativePath.isInScope("src", "src/a")).isTrue();
    assertThat(dev.prismindex.repository.RelativePath.isInScope("src", "srcx")).isFalse();
    assertThat(dev.prismindex.repository.RelativePath.isInScope("src", "src.ts")).isFalse();
    assertThat(dev.prismindex.repository.RelativePath.isInScope("src/a", "src")).isFalse();
  }

  @ParameterizedTest
  @CsvSource({"a,a", "./a,a", "a//b,a/b", "a/,a", "a/./b/.,a/b", "..foo/x,..foo/x"})
  void callerPathsAreNormalised(String path, String expected) {
    assertThat(RelativePaths.normalise(path)).isEqualTo(expected);
  }
}
