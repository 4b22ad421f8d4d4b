package dev.prismindex.index;

import static dev.prismindex.index.IndexTestSupport.ROOT;
import static dev.prismindex.index.IndexTestSupport.assertIllegalArgument;
import static dev.prismindex.index.IndexTestSupport.assertIndexError;
import static dev.prismindex.index.IndexTestSupport.composite;
import static dev.prismindex.index.IndexTestSupport.indexed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.RepositoryGlobRequest;
import dev.prismindex.repository.RepositoryListRequest;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Routing and the checks that run before the backend is queried (section 1.9 steps 1-3, 7). */
class IndexedSearchRoutingTest {

  private final FakeBackend backend = new FakeBackend();

  @Test
  void literalSearchGoesToTheFallbackUnchangedAndNeverTouchesTheBackend() {
    FakeFallback fallback = new FakeFallback();
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(ROOT,
        IndexedRepositoryOptions.builder(backend, fallback)
            .allowedModes(EnumSet.allOf(SearchMode.class)).build());
    RepositorySearchRequest explicit = RepositorySearchRequest.builder(ROOT, "q")
        .mode(SearchMode.LITERAL).maxMatches(0).path("/etc").build();
    RepositorySearchRequest defaulted = RepositorySearchRequest.builder(ROOT, "q").build();

    assertThat(ops.search(explicit)).isSameAs(FakeFallback.SEARCH_RESULT);
    assertThat(ops.search(defaulted)).isSameAs(FakeFallback.SEARCH_RESULT);

    assertThat(fallback.requests).containsExactly(explicit, defaulted);
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void regexSearchIsAScannerSearchToo() {
    FakeFallback fallback = new FakeFallback();
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(ROOT,
        IndexedRepositoryOptions.builder(backend, fallback).build());
    RepositorySearchRequest regex = RepositorySearchRequest.builder(ROOT, "fo+")
        .mode(SearchMode.REGEX).build();

    assertThat(ops.search(regex)).isSameAs(FakeFallback.SEARCH_RESULT);
    assertThat(fallback.requests).containsExactly(regex);
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void listAndGlobGoToTheFallbackUnchanged() {
    FakeFallback fallback = new FakeFallback();
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(ROOT,
        IndexedRepositoryOptions.builder(backend, fallback).build());
    RepositoryListRequest list = RepositoryListRequest.builder(ROOT).build();
    RepositoryGlobRequest glob = RepositoryGlobRequest.builder(ROOT, "*.txt").build();

    assertThat(ops.list(list)).isSameAs(FakeFallback.LIST_RESULT);
    assertThat(ops.glob(glob)).isSameAs(FakeFallback.GLOB_RESULT);
    assertThat(fallback.requests).containsExactly(list, glob);
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void creatingTheCompositeCallsNothingOnTheBackend() {
    composite(backend);
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void indexModesAreRefusedUnlessEnabled() {
    IndexedRepositoryOperations literalOnly = IndexedRepositoryOperations.create(ROOT,
        IndexedRepositoryOptions.builder(backend, new FakeFallback()).build());

    assertIndexError(() -> literalOnly.search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode indexed_literal is not enabled on this composite");
    assertIndexError(() -> literalOnly.search(indexed("q").mode(SearchMode.SEMANTIC).build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode semantic is not enabled on this composite");
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void semanticOnlyEnabledStillRefusesIndexedLiteral() {
    IndexedRepositoryOperations ops = composite(backend,
        b -> b.allowedModes(List.of(SearchMode.SEMANTIC)));
    assertIndexError(() -> ops.search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode indexed_literal is not enabled on this composite");
  }

  @Test
  void semanticNeedsTheBackendCapability() {
    IndexedRepositoryOperations ops = composite(backend);
    RepositorySearchRequest semantic = indexed("q").mode(SearchMode.SEMANTIC).build();

    assertIndexError(() -> ops.search(semantic), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "semantic search is not supported by this index backend");
    backend.capabilitiesAnswer = none -> null;
    assertIndexError(() -> ops.search(semantic), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "semantic search is not supported by this index backend");
    assertThat(backend.statusCalls).hasValue(0);
    assertThat(backend.queries).isEmpty();

    backend.capabilitiesAnswer = none -> IndexCapabilities.SEMANTIC;
    backend.hits(IndexSearchHit.of("a.txt", 0.5, "meaning"));
    RepositorySearchResult result = ops.search(semantic);
    assertThat(result.matches()).hasSize(1);
    assertThat(result.indexed().mode()).isEqualTo(SearchMode.SEMANTIC);
    assertThat(backend.queries.get(0).mode()).isEqualTo(SearchMode.SEMANTIC);
  }

  @Test
  void lexicalIsServedOnlyByABackendThatDeclaresIt() {
    IndexedRepositoryOperations ops = composite(backend);
    RepositorySearchRequest lexical = indexed("q").mode(SearchMode.LEXICAL).build();

    assertIndexError(() -> ops.search(lexical), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode lexical is not supported by this index backend");
    backend.capabilitiesAnswer = none -> IndexCapabilities.SEMANTIC;
    assertIndexError(() -> ops.search(lexical), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode lexical is not supported by this index backend");
    backend.capabilitiesAnswer = none -> null;
    assertIndexError(() -> ops.search(lexical), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode lexical is not supported by this index backend");
    assertThat(backend.statusCalls).hasValue(0);
    assertThat(backend.queries).isEmpty();

    backend.capabilitiesAnswer = none -> IndexCapabilities.of(SearchMode.LEXICAL);
    backend.hits(IndexSearchHit.of("a.txt", 0.5, "keyword"));
    RepositorySearchResult result = ops.search(lexical);
    assertThat(result.matches()).hasSize(1);
    assertThat(result.indexed().mode()).isEqualTo(SearchMode.LEXICAL);
    assertThat(backend.queries.get(0).mode()).isEqualTo(SearchMode.LEXICAL);
  }

  @Test
  void hybridNeedsTheSemanticCapabilityAndTheMode() {
    IndexedRepositoryOperations ops = composite(backend);
    RepositorySearchRequest hybrid = indexed("q").mode(SearchMode.HYBRID).build();

    assertIndexError(() -> ops.search(hybrid), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "semantic search is not supported by this index backend");
    backend.capabilitiesAnswer = none -> IndexCapabilities.of(SearchMode.LEXICAL, SearchMode.HYBRID);
    assertIndexError(() -> ops.search(hybrid), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "semantic search is not supported by this index backend");
    backend.capabilitiesAnswer = none -> IndexCapabilities.SEMANTIC;
    assertIndexError(() -> ops.search(hybrid), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode hybrid is not supported by this index backend");
    assertThat(backend.queries).isEmpty();

    backend.capabilitiesAnswer = none -> IndexCapabilities.of(SearchMode.SEMANTIC, SearchMode.HYBRID);
    backend.hits(IndexSearchHit.of("a.txt", 0.5, "fused"));
    assertThat(ops.search(hybrid).indexed().mode()).isEqualTo(SearchMode.HYBRID);
    assertThat(backend.queries.get(0).mode()).isEqualTo(SearchMode.HYBRID);
  }

  @Test
  void lexicalAndHybridAreRefusedUnlessEnabled() {
    backend.capabilitiesAnswer = none -> IndexCapabilities.of(
        SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID);
    IndexedRepositoryOperations ops = composite(backend,
        b -> b.allowedModes(List.of(SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC)));
    assertIndexError(() -> ops.search(indexed("q").mode(SearchMode.LEXICAL).build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode lexical is not enabled on this composite");
    assertIndexError(() -> ops.search(indexed("q").mode(SearchMode.HYBRID).build()),
        IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
        "search mode hybrid is not enabled on this composite");
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void capabilitiesAlwaysHoldIndexedLiteralAndNeverLiteral() {
    assertThat(IndexCapabilities.LITERAL_ONLY.modes()).containsExactly(SearchMode.INDEXED_LITERAL);
    assertThat(IndexCapabilities.LITERAL_ONLY.semantic()).isFalse();
    assertThat(IndexCapabilities.SEMANTIC.modes())
        .containsExactly(SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC);
    assertThat(IndexCapabilities.SEMANTIC.semantic()).isTrue();
    assertThat(new IndexCapabilities(true)).isEqualTo(IndexCapabilities.SEMANTIC);
    assertThat(IndexCapabilities.of(SearchMode.HYBRID).semantic()).isFalse();
    assertThat(IndexCapabilities.of(SearchMode.LEXICAL).answers(SearchMode.INDEXED_LITERAL))
        .isTrue();
    assertIllegalArgument(() -> IndexCapabilities.of(SearchMode.LITERAL),
        "literal is answered by the scanner, never by a backend");
  }

  @Test
  void aThrowingCapabilitiesCallFailsClosed() {
    backend.capabilitiesAnswer = none -> {
      throw new IllegalStateException("secret capability text");
    };
    IndexException error = assertIndexError(
        () -> composite(backend).search(indexed("q").mode(SearchMode.SEMANTIC).build()),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index query failed");
    assertThat(error.getCause()).hasMessage("secret capability text");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, 10_001, Integer.MIN_VALUE})
  void invalidMaxMatchesIsRejectedBeforeTheStatusCall(int maxMatches) {
    backend.statusAnswer = none -> {
      throw new AssertionError("status must not be called");
    };
    assertIllegalArgument(() -> composite(backend).search(indexed("q").maxMatches(maxMatches).build()),
        "maxMatches must be a positive safe integer at most 10000");
    assertThat(backend.statusCalls).hasValue(0);
  }

  @ParameterizedTest
  @ValueSource(longs = {0, -1, 300_001, Long.MAX_VALUE})
  void invalidDeadlineIsRejectedBeforeTheStatusCall(long deadlineMs) {
    assertIllegalArgument(() -> composite(backend).search(indexed("q").deadlineMs(deadlineMs).build()),
        "deadlineMs must be a positive safe integer at most 300000");
    assertThat(backend.statusCalls).hasValue(0);
  }

  @Test
  void theServedCapIsTheSmallerOfTheLimitAndTheRequest() {
    IndexedRepositoryOperations ops = composite(backend,
        b -> b.limits(IndexLimits.builder().maxResults(5).build()));

    ops.search(indexed("q").build());
    ops.search(indexed("q").maxMatches(3).build());
    ops.search(indexed("q").maxMatches(10_000).build());

    assertThat(backend.queries).extracting(IndexQuery::maxResults).containsExactly(5, 3, 5);
  }

  @Test
  void theQueryBudgetIsTheSmallerOfTheRequestDeadlineAndTheQueryTimeout() {
    IndexedRepositoryOperations ops = composite(backend,
        b -> b.limits(IndexLimits.builder().queryTimeoutMs(2_000).build()));

    ops.search(indexed("q").build());
    ops.search(indexed("q").deadlineMs(500L).build());
    ops.search(indexed("q").deadlineMs(300_000L).build());

    assertThat(backend.queries.get(0).deadlineMs()).isBetween(1L, 2_000L);
    assertThat(backend.queries.get(1).deadlineMs()).isBetween(1L, 500L);
    assertThat(backend.queries.get(2).deadlineMs()).isBetween(1L, 2_000L);
  }

  @Test
  void anAlreadyAbortedSignalFailsWithoutCallingTheBackend() {
    assertIndexError(
        () -> composite(backend).search(indexed("q").signal(AbortSignal.aborted()).build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query aborted");
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void theQueryCarriesTheRequestAndAChildSignal() {
    AbortSignal callerSignal = AbortSignal.create();
    composite(backend).search(indexed("Needle").path("./src/").caseSensitive(true)
        .maxMatches(7).signal(callerSignal).build());

    IndexQuery query = backend.queries.get(0);
    assertThat(query.query()).isEqualTo("Needle");
    assertThat(query.mode()).isEqualTo(SearchMode.INDEXED_LITERAL);
    assertThat(query.scope()).isEqualTo("src");
    assertThat(query.caseSensitive()).isTrue();
    assertThat(query.maxResults()).isEqualTo(7);
    assertThat(query.signal()).isNotSameAs(callerSignal);
    assertThat(query.signal().isAborted()).isFalse();

    // The child was unlinked when the query finished: a later abort does not reach it.
    callerSignal.abort();
    assertThat(query.signal().isAborted()).isFalse();
  }

  @Test
  void caseInsensitiveIsTheDefault() {
    composite(backend).search(indexed("q").build());
    assertThat(backend.queries.get(0).caseSensitive()).isFalse();
    assertThat(backend.queries.get(0).scope()).isNull();
  }

  @Test
  void aRequestRootOtherThanTheCompositeRootIsAnInvalidScope() {
    RepositorySearchRequest elsewhere = RepositorySearchRequest
        .builder(ROOT.resolve("sub"), "q").mode(SearchMode.INDEXED_LITERAL).build();
    assertIndexError(() -> composite(backend).search(elsewhere),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "requested path scope is invalid");
    assertThat(backend.queries).isEmpty();

    RepositorySearchRequest sameRootSpelledDifferently = RepositorySearchRequest
        .builder(ROOT.resolve("sub/.."), "q").mode(SearchMode.INDEXED_LITERAL).build();
    composite(backend).search(sameRootSpelledDifferently);
    assertThat(backend.queries).hasSize(1);
  }
}
