package dev.prismindex.index;

import dev.prismindex.internal.Utf8;
import dev.prismindex.repository.SearchMode;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Decides from a backend's {@link IndexStatus} whether an index may answer a query, in this order:
 *
 * <ol>
 *   <li>no status or no state: FAILED "index reported an unknown state";
 *   <li>{@code failed}: FAILED "index is failed; no search is served";
 *   <li>{@code empty}: STALE "index has no data; update it before querying";
 *   <li>{@code building}: STALE "index is still building";
 *   <li>{@code stale}: STALE "index is stale; refresh it before querying". The reference serves this
 *       state while its timestamp is fresh; its documentation says {@code stale} means refuse
 *       (weakness 6), and a backend that says it lags the tree is believed, so we refuse;
 *   <li>{@code ready}, no {@code updatedAt}: STALE "index does not attest a freshness timestamp";
 *   <li>{@code updatedAt} more than the window in the future (clock skew or a bogus value): the same
 *       STALE "index does not attest a freshness timestamp";
 *   <li>{@code updatedAt} more than the window in the past: STALE "index is stale; refresh it before
 *       querying" (an age equal to the window is still fresh, as in the reference);
 *   <li>{@code requireSourceRevision} and no attested revision: STALE "index does not attest a source
 *       revision". A revision that is empty or over 4 096 UTF-8 bytes is not an attestation and counts
 *       as absent.
 * </ol>
 *
 * <p>An admitted status becomes the result's {@link IndexAttestation}, with the revision bounded the
 * same way.
 *
 * @param windowMs the stale window: how far {@code updatedAt} may lie from now, either way
 * @param requireSourceRevision whether an index that attests no source revision is refused
 * @param epochMillis the clock, in epoch milliseconds
 */
record FreshnessGate(long windowMs, boolean requireSourceRevision, LongSupplier epochMillis) {

  /** The reference's {@code MAX_REVISION_BYTES}. */
  static final int MAX_REVISION_BYTES = 4_096;

  /**
   * Returns what the index attests when it may answer a {@code mode} query.
   *
   * @throws IndexException FAILED or STALE as listed in the class documentation
   */
  IndexAttestation admit(@Nullable IndexStatus status, SearchMode mode) {
    if (status == null || status.state() == null) {
      throw failed(IndexMessages.UNKNOWN_STATE);
    }
    IndexState state = status.state();
    switch (state) {
      case FAILED -> throw failed(IndexMessages.STATE_FAILED);
      case EMPTY -> throw stale(IndexMessages.STATE_EMPTY);
      case BUILDING -> throw stale(IndexMessages.STATE_BUILDING);
      case STALE -> throw stale(IndexMessages.STALE);
      case READY -> { }
      default -> throw failed(IndexMessages.UNKNOWN_STATE);
    }
    Long updatedAt = status.updatedAt();
    if (updatedAt == null) {
      throw stale(IndexMessages.NO_TIMESTAMP);
    }
    long now = epochMillis.getAsLong();
    // Written as comparisons against now +/- window so that no value of updatedAt can overflow.
    if (updatedAt > now + windowMs) {
      throw stale(IndexMessages.NO_TIMESTAMP);
    }
    if (updatedAt < now - windowMs) {
      throw stale(IndexMessages.STALE);
    }
    String revision = attestedRevision(status.sourceRevision());
    if (requireSourceRevision && revision == null) {
      throw stale(IndexMessages.NO_REVISION);
    }
    return new IndexAttestation(mode, state, revision, updatedAt);
  }

  /** The revision if it is an attestation (non-empty, at most 4 096 UTF-8 bytes), else {@code null}. */
  static @Nullable String attestedRevision(@Nullable String revision) {
    if (revision == null || revision.isEmpty() || Utf8.byteLength(revision) > MAX_REVISION_BYTES) {
      return null;
    }
    return revision;
  }

  private static IndexException failed(String message) {
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_FAILED, message);
  }

  private static IndexException stale(String message) {
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_STALE, message);
  }
}
