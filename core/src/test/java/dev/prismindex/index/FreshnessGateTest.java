package dev.prismindex.index;

import static dev.prismindex.index.IndexTestSupport.ROOT;
import static dev.prismindex.index.IndexTestSupport.assertIndexError;
import static dev.prismindex.index.IndexTestSupport.indexed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.util.EnumSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The freshness gate, through the composite with a fixed clock (section 1.9 step 4, weaknesses 2, 6). */
class FreshnessGateTest {

  private static final long NOW = 1_700_000_000_000L;
  private static final long WINDOW = IndexLimits.DEFAULT_MAX_INDEX_STALE_MAX_AGE_MS;

  private final FakeBackend backend = new FakeBackend();

  private IndexedRepositoryOperations composite(boolean requireSourceRevision) {
    IndexedRepositoryOptions options = IndexedRepositoryOptions.builder(backend, new FakeFallback())
        .allowedModes(EnumSet.allOf(SearchMode.class))
        .requireSourceRevision(requireSourceRevision)
        .build();
    return IndexedRepositoryOperations.create(ROOT, options, () -> NOW, System::nanoTime);
  }

  private void status(@Nullable IndexState state, @Nullable String revision, @Nullable Long updatedAt) {
    backend.statusAnswer = none -> new IndexStatus(state, revision, updatedAt, null);
  }

  private void assertRefused(IndexErrorCode code, String message) {
    assertIndexError(() -> composite(false).search(indexed("q").build()), code, message);
    assertThat(backend.queries).isEmpty();
  }

  @Test
  void failedStateIsRefused() {
    status(IndexState.FAILED, "r", NOW);
    assertRefused(IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is failed; no search is served");
  }

  @Test
  void emptyStateIsRefused() {
    status(IndexState.EMPTY, "r", NOW);
    assertRefused(IndexErrorCode.ERR_PRISM_INDEX_STALE, "index has no data; update it before querying");
  }

  @Test
  void buildingStateIsRefused() {
    status(IndexState.BUILDING, "r", NOW);
    assertRefused(IndexErrorCode.ERR_PRISM_INDEX_STALE, "index is still building");
  }

  @Test
  void staleStateIsRefusedEvenWithAFreshTimestamp() {
    status(IndexState.STALE, "r", NOW);
    assertRefused(IndexErrorCode.ERR_PRISM_INDEX_STALE, "index is stale; refresh it before querying");
  }

  @Test
  void missingStateIsAnUnknownState() {
    status(null, "r", NOW);
    assertRefused(IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index reported an unknown state");
  }

  @Test
  void missingStatusIsAnUnknownState() {
    backend.statusAnswer = none -> null;
    assertRefused(IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index reported an unknown state");
  }

  @Test
  void aThrowingStatusFailsWithAFixedMessage() {
    backend.statusAnswer = none -> {
      throw new IndexException(IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED, "secret status text");
    };
    IndexException error = assertIndexError(() -> composite(false).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index status failed");
    assertThat(error.getCause()).hasMessage("secret status text");
    assertThat(backend.queries).isEmpty();
  }

  @Test
  void missingTimestampIsRefused() {
    status(IndexState.READY, "r", null);
    assertRefused(IndexErrorCode.ERR_PRISM_INDEX_STALE, "index does not attest a freshness timestamp");
  }

  @Test
  void anAgeEqualToTheWindowIsServedAndOneMoreIsStale() {
    status(IndexState.READY, "r", NOW - WINDOW);
    assertThat(composite(false).search(indexed("q").build()).indexed().updatedAt())
        .isEqualTo(NOW - WINDOW);

    status(IndexState.READY, "r", NOW - WINDOW - 1);
    assertIndexError(() -> composite(false).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_STALE, "index is stale; refresh it before querying");
  }

  @Test
  void zeroAndNegativeTimestampsAreStale() {
    for (long updatedAt : new long[] {0, -1, Long.MIN_VALUE}) {
      status(IndexState.READY, "r", updatedAt);
      assertIndexError(() -> composite(false).search(indexed("q").build()),
          IndexErrorCode.ERR_PRISM_INDEX_STALE, "index is stale; refresh it before querying");
    }
  }

  @Test
  void aFutureTimestampWithinTheWindowIsServedAndBeyondItIsNotAnAttestation() {
    status(IndexState.READY, "r", NOW + WINDOW);
    composite(false).search(indexed("q").build());

    for (long updatedAt : new long[] {NOW + WINDOW + 1, Long.MAX_VALUE}) {
      status(IndexState.READY, "r", updatedAt);
      assertIndexError(() -> composite(false).search(indexed("q").build()),
          IndexErrorCode.ERR_PRISM_INDEX_STALE, "index does not attest a freshness timestamp");
    }
  }

  @Test
  void theConfiguredStaleWindowIsUsed() {
    IndexedRepositoryOptions options = IndexedRepositoryOptions.builder(backend, new FakeFallback())
        .allowedModes(EnumSet.allOf(SearchMode.class)).staleMaxAgeMs(1_000).build();
    IndexedRepositoryOperations ops =
        IndexedRepositoryOperations.create(ROOT, options, () -> NOW, System::nanoTime);
    status(IndexState.READY, "r", NOW - 1_000);
    ops.search(indexed("q").build());
    status(IndexState.READY, "r", NOW - 1_001);
    assertIndexError(() -> ops.search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_STALE, "index is stale; refresh it before querying");
  }

  @ParameterizedTest
  @NullAndEmptySource
  void aRequiredRevisionMustBeAttested(@Nullable String revision) {
    status(IndexState.READY, revision, NOW);
    assertIndexError(() -> composite(true).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_STALE, "index does not attest a source revision");
    assertThat(backend.queries).isEmpty();
  }

  @Test
  void anOversizedRevisionIsNotAnAttestation() {
    String oversized = "€".repeat(1_366); // 4 098 UTF-8 bytes
    status(IndexState.READY, oversized, NOW);
    assertIndexError(() -> composite(true).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_STALE, "index does not attest a source revision");

    RepositorySearchResult notRequired = composite(false).search(indexed("q").build());
    assertThat(notRequired.indexed().sourceRevision()).isNull();
  }

  @Test
  void aRevisionOfExactly4096BytesIsAnAttestation() {
    String bounded = "a".repeat(4_096);
    status(IndexState.READY, bounded, NOW);
    assertThat(composite(true).search(indexed("q").build()).indexed().sourceRevision())
        .isEqualTo(bounded);
  }

  @Test
  void withoutRequirementAMissingRevisionIsServed() {
    status(IndexState.READY, null, NOW);
    assertThat(composite(false).search(indexed("q").build()).indexed().sourceRevision()).isNull();
  }

  @Test
  void theAttestationCopiesTheStatusRead() {
    status(IndexState.READY, "abc123", NOW - 5);
    RepositorySearchResult result =
        composite(true).search(indexed("q").mode(SearchMode.INDEXED_LITERAL).build());
    assertThat(result.indexed())
        .isEqualTo(new IndexAttestation(SearchMode.INDEXED_LITERAL, IndexState.READY, "abc123", NOW - 5));
    assertThat(result.untrustedIndex()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"EMPTY", "BUILDING", "STALE", "FAILED"})
  void noStateButReadyIsEverQueried(String state) {
    status(IndexState.valueOf(state), "r", NOW);
    org.assertj.core.api.Assertions.catchThrowable(() -> composite(false).search(indexed("q").build()));
    assertThat(backend.queries).isEmpty();
  }

  @Test
  void unitGateChecksStateBeforeTimestamp() {
    FreshnessGate gate = new FreshnessGate(WINDOW, true, () -> NOW);
    assertIndexError(() -> gate.admit(new IndexStatus(IndexState.EMPTY, null, null, null),
            SearchMode.INDEXED_LITERAL),
        IndexErrorCode.ERR_PRISM_INDEX_STALE, "index has no data; update it before querying");
    assertIndexError(() -> gate.admit(new IndexStatus(IndexState.READY, null, NOW - WINDOW - 1, null),
            SearchMode.INDEXED_LITERAL),
        IndexErrorCode.ERR_PRISM_INDEX_STALE, "index is stale; refresh it before querying");
  }
}
