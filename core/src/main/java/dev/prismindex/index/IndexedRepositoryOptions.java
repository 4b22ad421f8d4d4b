package dev.prismindex.index;

import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.SearchMode;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of an {@link IndexedRepositoryOperations} composite. Build with
 * {@link #builder(RepositoryIndexBackend, RepositoryOperations)}.
 *
 * @param index the backend that answers index modes
 * @param fallback the literal operations that answer {@code literal} searches, lists and globs
 * @param allowedModes the search modes served; always contains {@link SearchMode#LITERAL} (default:
 *     literal only, so index modes must be enabled explicitly)
 * @param requireSourceRevision whether an index that attests no source revision is refused as stale
 * @param limits the seam's limits; {@link IndexLimits#staleMaxAgeMs()} is the one stale window
 */
public record IndexedRepositoryOptions(
    RepositoryIndexBackend index,
    RepositoryOperations fallback,
    Set<SearchMode> allowedModes,
    boolean requireSourceRevision,
    IndexLimits limits) {

  public IndexedRepositoryOptions {
    Objects.requireNonNull(index, "index");
    Objects.requireNonNull(fallback, "fallback");
    Objects.requireNonNull(limits, "limits");
    EnumSet<SearchMode> modes = EnumSet.of(SearchMode.LITERAL);
    modes.addAll(allowedModes);
    allowedModes = Set.copyOf(modes);
  }

  /** The stale window in milliseconds (the same value as {@code limits().staleMaxAgeMs()}). */
  public long staleMaxAgeMs() {
    return limits.staleMaxAgeMs();
  }

  /** Starts options for {@code index} with {@code fallback} for literal operations. */
  public static Builder builder(RepositoryIndexBackend index, RepositoryOperations fallback) {
    return new Builder(index, fallback);
  }

  /** Builds {@link IndexedRepositoryOptions}. */
  public static final class Builder {
    private final RepositoryIndexBackend index;
    private final RepositoryOperations fallback;
    private Set<SearchMode> allowedModes = EnumSet.of(SearchMode.LITERAL);
    private boolean requireSourceRevision;
    private IndexLimits limits = IndexLimits.defaults();
    private @Nullable Number staleMaxAgeMs;

    private Builder(RepositoryIndexBackend index, RepositoryOperations fallback) {
      this.index = Objects.requireNonNull(index, "index");
      this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    /** The modes served besides {@code literal}, which is always served. */
    public Builder allowedModes(Collection<SearchMode> modes) {
      this.allowedModes = modes.isEmpty() ? EnumSet.of(SearchMode.LITERAL) : EnumSet.copyOf(modes);
      return this;
    }

    /** Refuse (as stale) an index that attests no source revision. */
    public Builder requireSourceRevision(boolean value) {
      this.requireSourceRevision = value;
      return this;
    }

    /** The seam's limits. */
    public Builder limits(IndexLimits value) {
      this.limits = Objects.requireNonNull(value, "limits");
      return this;
    }

    /**
     * The stale window in milliseconds; overrides {@code limits.staleMaxAgeMs} and is validated the
     * same way (1..300 000).
     */
    public Builder staleMaxAgeMs(Number value) {
      this.staleMaxAgeMs = value;
      return this;
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException when the stale window is outside 1..300 000
     */
    public IndexedRepositoryOptions build() {
      IndexLimits resolved = staleMaxAgeMs == null ? limits
          : limits.toBuilder().staleMaxAgeMs(staleMaxAgeMs).build();
      return new IndexedRepositoryOptions(
          index, fallback, allowedModes, requireSourceRevision, resolved);
    }
  }
}
