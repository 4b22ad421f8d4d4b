package dev.prismindex.index;

import dev.prismindex.repository.CodingLimits;
import dev.prismindex.repository.RepositoryLimits;
import org.jspecify.annotations.Nullable;

/**
 * The resolved, validated limits of the index seam. Build with {@link #builder()}; unset options take
 * their defaults and every value is checked against its hard cap (rejecting, never clamping, with the
 * messages of {@link CodingLimits}).
 *
 * @param maxUpdateFiles changes per update and paths per remove (default 1 000, hard 10 000)
 * @param maxUpdateBytes UTF-8 bytes of revision plus paths per update (default 16 MiB, hard 64 MiB)
 * @param maxResults hits served per query (default 1 000, hard 10 000)
 * @param maxSnippetBytes UTF-8 bytes kept of each snippet (default 4 096, hard 16 384)
 * @param staleMaxAgeMs the stale window: the oldest attested {@code updatedAt} served (default
 *     60 000, hard 300 000)
 * @param queryTimeoutMs the longest a query may run (default 30 000, hard 120 000)
 */
public record IndexLimits(
    int maxUpdateFiles,
    long maxUpdateBytes,
    int maxResults,
    int maxSnippetBytes,
    long staleMaxAgeMs,
    long queryTimeoutMs) {

  public static final int DEFAULT_MAX_INDEX_UPDATE_FILES = 1_000;
  public static final int HARD_MAX_INDEX_UPDATE_FILES = 10_000;
  public static final long DEFAULT_MAX_INDEX_UPDATE_BYTES = 16L * 1024 * 1024;
  public static final long HARD_MAX_INDEX_UPDATE_BYTES = 64L * 1024 * 1024;
  /** Hits per query: the scanner's matches per search ({@link RepositoryLimits}), one limit. */
  public static final int DEFAULT_MAX_REPO_RESULTS = RepositoryLimits.DEFAULT_MAX_SEARCH_MATCHES;
  /** Hits per query at most: the scanner's hard cap on matches, one limit for every mode. */
  public static final int HARD_MAX_REPO_RESULTS = RepositoryLimits.HARD_MAX_SEARCH_MATCHES;
  public static final int DEFAULT_MAX_INDEX_SNIPPET_BYTES = 4_096;
  public static final int HARD_MAX_INDEX_SNIPPET_BYTES = 16_384;
  public static final long DEFAULT_MAX_INDEX_STALE_MAX_AGE_MS = 60_000;
  public static final long HARD_MAX_INDEX_STALE_MAX_AGE_MS = 300_000;
  public static final long DEFAULT_MAX_INDEX_QUERY_TIMEOUT_MS = 30_000;
  public static final long HARD_MAX_INDEX_QUERY_TIMEOUT_MS = 120_000;

  private static final IndexLimits DEFAULTS = builder().build();

  public IndexLimits {
    CodingLimits.requirePositive("maxUpdateFiles", maxUpdateFiles, HARD_MAX_INDEX_UPDATE_FILES);
    CodingLimits.requirePositive("maxUpdateBytes", maxUpdateBytes, HARD_MAX_INDEX_UPDATE_BYTES);
    CodingLimits.requirePositive("maxResults", maxResults, HARD_MAX_REPO_RESULTS);
    CodingLimits.requirePositive("maxSnippetBytes", maxSnippetBytes, HARD_MAX_INDEX_SNIPPET_BYTES);
    CodingLimits.requirePositive("staleMaxAgeMs", staleMaxAgeMs, HARD_MAX_INDEX_STALE_MAX_AGE_MS);
    CodingLimits.requirePositive("queryTimeoutMs", queryTimeoutMs, HARD_MAX_INDEX_QUERY_TIMEOUT_MS);
  }

  /** The all-default limits. */
  public static IndexLimits defaults() {
    return DEFAULTS;
  }

  /** Returns a builder whose unset options take their defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns a builder holding these limits. */
  public Builder toBuilder() {
    return builder().maxUpdateFiles(maxUpdateFiles).maxUpdateBytes(maxUpdateBytes)
        .maxResults(maxResults).maxSnippetBytes(maxSnippetBytes).staleMaxAgeMs(staleMaxAgeMs)
        .queryTimeoutMs(queryTimeoutMs);
  }

  /** Collects optional limit values; {@link #build()} applies defaults, then validates. */
  public static final class Builder {
    private @Nullable Number maxUpdateFiles;
    private @Nullable Number maxUpdateBytes;
    private @Nullable Number maxResults;
    private @Nullable Number maxSnippetBytes;
    private @Nullable Number staleMaxAgeMs;
    private @Nullable Number queryTimeoutMs;

    private Builder() {}

    public Builder maxUpdateFiles(Number value) {
      this.maxUpdateFiles = value;
      return this;
    }

    public Builder maxUpdateBytes(Number value) {
      this.maxUpdateBytes = value;
      return this;
    }

    public Builder maxResults(Number value) {
      this.maxResults = value;
      return this;
    }

    public Builder maxSnippetBytes(Number value) {
      this.maxSnippetBytes = value;
      return this;
    }

    public Builder staleMaxAgeMs(Number value) {
      this.staleMaxAgeMs = value;
      return this;
    }

    public Builder queryTimeoutMs(Number value) {
      this.queryTimeoutMs = value;
      return this;
    }

    /**
     * Applies defaults to unset options and validates every value.
     *
     * @throws IllegalArgumentException naming the first invalid option
     */
    public IndexLimits build() {
      return new IndexLimits(
          (int) positive("maxUpdateFiles", maxUpdateFiles, DEFAULT_MAX_INDEX_UPDATE_FILES,
              HARD_MAX_INDEX_UPDATE_FILES),
          positive("maxUpdateBytes", maxUpdateBytes, DEFAULT_MAX_INDEX_UPDATE_BYTES,
              HARD_MAX_INDEX_UPDATE_BYTES),
          (int) positive("maxResults", maxResults, DEFAULT_MAX_REPO_RESULTS, HARD_MAX_REPO_RESULTS),
          (int) positive("maxSnippetBytes", maxSnippetBytes, DEFAULT_MAX_INDEX_SNIPPET_BYTES,
              HARD_MAX_INDEX_SNIPPET_BYTES),
          positive("staleMaxAgeMs", staleMaxAgeMs, DEFAULT_MAX_INDEX_STALE_MAX_AGE_MS,
              HARD_MAX_INDEX_STALE_MAX_AGE_MS),
          positive("queryTimeoutMs", queryTimeoutMs, DEFAULT_MAX_INDEX_QUERY_TIMEOUT_MS,
              HARD_MAX_INDEX_QUERY_TIMEOUT_MS));
    }

    private static long positive(String name, @Nullable Number value, long def, long hard) {
      return CodingLimits.requirePositive(name, value == null ? def : value, hard);
    }
  }
}
