package dev.prismindex.index;

import static dev.prismindex.index.IndexTestSupport.assertIndexError;
import static dev.prismindex.index.IndexTestSupport.composite;
import static dev.prismindex.index.IndexTestSupport.indexed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.TruncationReason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** De-duplication, the cap and truncation (weakness 3). */
class HitCollectionTest {

  private final FakeBackend backend = new FakeBackend();

  private static IndexSearchHit hit(String path, double score) {
    return IndexSearchHit.of(path, score, "snippet of " + path + " " + score);
  }

  private static IndexSearchHit hit(String path) {
    return hit(path, 0.5);
  }

  private RepositorySearchResult search(int maxMatches, boolean backendTruncated, IndexSearchHit... hits) {
    List<IndexSearchHit> list = new ArrayList<>(List.of(hits));
    backend.searchAnswer = query -> new IndexQueryResult(list, backendTruncated);
    return composite(backend).search(indexed("q").maxMatches(maxMatches).build());
  }

  private static List<String> paths(RepositorySearchResult result) {
    return result.matches().stream().map(RepositorySearchMatch::path).toList();
  }

  @Test
  void theFirstOfDuplicatePathsWinsAndDuplicatesDoNotTruncate() {
    RepositorySearchResult result = search(10, false, hit("a", 0.9), hit("b"), hit("a", 0.1));
    assertThat(paths(result)).containsExactly("a", "b");
    assertThat(result.matches().get(0).score()).isEqualTo(0.9);
    assertThat(result.matches().get(0).text()).isEqualTo("snippet of a 0.9");
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void aDuplicateIsDroppedBeforeItsOtherFieldsAreInspected() {
    RepositorySearchResult result = search(10, false,
        hit("a"), IndexSearchHit.of("a", Double.NaN, "bad"), new IndexSearchHit("a", 0.5, null, -1, 0, 0));
    assertThat(paths(result)).containsExactly("a");
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void anotherSpellingOfAServedPathIsNotADuplicateButAnUntrustedPath() {
    for (String spelling : List.of("./a.ts", "a.ts/", "x/../a.ts", "./x/../a.ts", "a.ts/.")) {
      backend.hits(hit("a.ts"), hit(spelling));
      assertIndexError(() -> composite(backend).search(indexed("q").build()),
          IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a path outside the repository");
    }
  }

  @Test
  void duplicatesDoNotConsumeTheCap() {
    RepositorySearchResult result = search(2, false, hit("a"), hit("a"), hit("a"), hit("b"));
    assertThat(paths(result)).containsExactly("a", "b");
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void aFurtherDistinctHitBeyondTheCapTruncates() {
    RepositorySearchResult result = search(2, false, hit("a"), hit("b"), hit("c"));
    assertThat(paths(result)).containsExactly("a", "b");
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.INDEX);
  }

  @Test
  void exactlyTheCapIsNotTruncated() {
    RepositorySearchResult result = search(2, false, hit("a"), hit("b"));
    assertThat(paths(result)).containsExactly("a", "b");
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void onlyDuplicatesBeyondTheCapDoNotTruncate() {
    RepositorySearchResult result = search(2, false, hit("a"), hit("b"), hit("a"), hit("b"), hit("a"));
    assertThat(paths(result)).containsExactly("a", "b");
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void theBackendsTruncatedFlagIsHonoured() {
    RepositorySearchResult result = search(10, true, hit("a"));
    assertThat(paths(result)).containsExactly("a");
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.INDEX);

    RepositorySearchResult empty = search(10, true);
    assertThat(empty.matches()).isEmpty();
    assertThat(empty.truncatedBy()).isEqualTo(TruncationReason.INDEX);
  }

  @Test
  void theFirstDistinctHitBeyondTheCapIsValidated() {
    backend.searchAnswer = query -> new IndexQueryResult(
        List.of(hit("a"), hit("b"), hit("a"), hit("/etc/passwd")), false);
    assertIndexError(() -> composite(backend).search(indexed("q").maxMatches(2).build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a path outside the repository");

    backend.searchAnswer = query -> new IndexQueryResult(
        List.of(hit("a"), hit("b"), IndexSearchHit.of("c", 7, "bad score")), false);
    assertIndexError(() -> composite(backend).search(indexed("q").maxMatches(2).build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid score");
  }

  @Test
  void hitsAfterTheFirstFurtherDistinctHitAreNotInspected() {
    RepositorySearchResult result =
        search(2, false, hit("a"), hit("b"), hit("c"), hit("/etc/passwd"), hit(".."));
    assertThat(paths(result)).containsExactly("a", "b");
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.INDEX);
  }

  @Test
  void theLimitCapAppliesWhenTheRequestHasNone() {
    List<IndexSearchHit> many = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      many.add(hit("f" + i));
    }
    backend.searchAnswer = query -> new IndexQueryResult(many, false);
    RepositorySearchResult result = composite(backend,
        b -> b.limits(IndexLimits.builder().maxResults(20).build())).search(indexed("q").build());
    assertThat(result.matches()).hasSize(20);
    assertThat(result.matches().get(19).path()).isEqualTo("f19");
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.INDEX);
  }

  @Test
  void backendOrderIsKept() {
    RepositorySearchResult result = search(10, false, hit("z", 0.2), hit("a", 0.9), hit("m", 0.5));
    assertThat(paths(result)).containsExactly("z", "a", "m");
  }
}
