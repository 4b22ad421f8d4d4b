package dev.prismindex.index;

import org.jspecify.annotations.Nullable;

/**
 * Resource figures a backend reports with its status.
 *
 * @param entries indexed entries (files, for the reference backends)
 * @param bytes bytes held by the index (in memory or on disk)
 * @param lastUpdatedAt when the last update finished (epoch milliseconds), if known
 */
public record IndexDiagnostics(long entries, long bytes, @Nullable Long lastUpdatedAt) {}
