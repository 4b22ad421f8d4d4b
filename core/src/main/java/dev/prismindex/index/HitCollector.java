package dev.prismindex.index;

import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.TruncationReason;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Turns a backend's answer into a served result: validates, de-duplicates, caps and decides
 * truncation (the fix of weakness 3).
 *
 * <ul>
 *   <li>A {@code null} result, a {@code null} hit list or a {@code null} hit is UNTRUSTED "index
 *       reported a malformed result".
 *   <li>Hits are taken in backend order. Each hit's path is checked first ({@link HitValidator#path});
 *       a hit whose checked path was already served is dropped without further inspection (first
 *       wins) and neither consumes the cap nor marks the result truncated. Every other hit is
 *       validated completely before it is kept; any invalid hit fails the whole query.
 *   <li>At most {@code maxResults} distinct hits are kept. After the cap the collector keeps reading
 *       only until it finds one more distinct, valid hit (which proves truncation); later hits are
 *       not inspected at all. That further hit is validated like a kept one, so an invalid hit there
 *       still fails the query.
 *   <li>{@code truncatedBy = INDEX} exactly when the backend said {@code truncated} or such a further
 *       distinct hit exists.
 * </ul>
 */
final class HitCollector {

  private HitCollector() {}

  static RepositorySearchResult collect(
      @Nullable IndexQueryResult result,
      HitValidator validator,
      int maxResults,
      IndexAttestation attestation) {
    if (result == null || result.hits() == null) {
      throw malformed(null);
    }
    try {
      return collect(result.hits(), result.truncated(), validator, maxResults, attestation);
    } catch (IndexException verdict) {
      throw verdict;
    } catch (RuntimeException brokenList) {
      // A backend-supplied list whose iteration fails is a malformed result, not a raw error.
      throw malformed(brokenList);
    }
  }

  private static RepositorySearchResult collect(
      List<@Nullable IndexSearchHit> hits,
      boolean backendTruncated,
      HitValidator validator,
      int maxResults,
      IndexAttestation attestation) {
    List<RepositorySearchMatch> matches = new ArrayList<>(Math.min(hits.size(), maxResults));
    Set<String> seen = new HashSet<>();
    boolean furtherHit = false;
    for (IndexSearchHit hit : hits) {
      if (hit == null) {
        throw malformed(null);
      }
      String path = validator.path(hit);
      if (!seen.add(path)) {
        continue;
      }
      RepositorySearchMatch match = validator.match(hit, path);
      if (matches.size() == maxResults) {
        furtherHit = true;
        break;
      }
      matches.add(match);
    }
    TruncationReason truncatedBy = backendTruncated || furtherHit ? TruncationReason.INDEX : null;
    return new RepositorySearchResult(matches, truncatedBy, 0, 0, 0, 0, 0, attestation);
  }

  private static IndexException malformed(@Nullable Throwable cause) {
    IndexException error = new IndexException(
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, IndexMessages.MALFORMED_RESULT);
    if (cause != null) {
      error.initCause(cause);
    }
    return error;
  }
}
