package dev.prismindex.index;

import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A query the composite sends to a backend, already validated.
 *
 * @param query the caller's query text, verbatim
 * @param mode an index mode the backend declared in its {@link IndexCapabilities}
 *     ({@link SearchMode#INDEXED_LITERAL} always; {@code lexical}, {@code semantic}, {@code hybrid}
 *     only when declared)
 * @param scope a normalised repository-relative directory or file the hits must lie in; {@code null}
 *     for the whole repository
 * @param maxResults the most hits the composite will serve, at least 1; a backend should return no
 *     more
 * @param caseSensitive whether {@code indexed_literal} must match case exactly
 * @param signal aborted when the caller cancels or the composite's deadline passes; backends should
 *     check it
 * @param deadlineMs the time budget of this call in milliseconds
 */
public record IndexQuery(
    String query,
    SearchMode mode,
    @Nullable String scope,
    int maxResults,
    boolean caseSensitive,
    AbortSignal signal,
    long deadlineMs) {

  public IndexQuery {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(signal, "signal");
    if (maxResults < 1) {
      throw new IllegalArgumentException("maxResults must be positive: " + maxResults);
    }
  }
}
