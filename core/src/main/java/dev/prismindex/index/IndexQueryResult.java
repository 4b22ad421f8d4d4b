package dev.prismindex.index;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A backend's answer: hits in rank order, and whether more existed than were returned. Untrusted
 * until validated by the composite; a {@code null} list is reported as
 * {@link IndexErrorCode#ERR_PRISM_INDEX_UNTRUSTED}.
 *
 * @param hits the hits, best first
 * @param truncated whether the backend stopped before returning every hit
 */
public record IndexQueryResult(@Nullable List<@Nullable IndexSearchHit> hits, boolean truncated) {}
