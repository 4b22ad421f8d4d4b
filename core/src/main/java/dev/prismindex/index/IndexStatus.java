package dev.prismindex.index;

import org.jspecify.annotations.Nullable;

/**
 * What a backend attests about itself. Untrusted: the composite refuses to query an index whose state
 * is missing, not servable, or whose timestamp or (when required) revision is missing or stale.
 *
 * @param state the lifecycle state; {@code null} is reported as an unknown state
 * @param sourceRevision the revision the index reflects, if attested
 * @param updatedAt when the index was last brought up to date (epoch milliseconds), if attested
 * @param diagnostics resource figures, if the backend reports them
 */
public record IndexStatus(
    @Nullable IndexState state,
    @Nullable String sourceRevision,
    @Nullable Long updatedAt,
    @Nullable IndexDiagnostics diagnostics) {}
