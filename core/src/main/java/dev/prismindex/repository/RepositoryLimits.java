package dev.prismindex.repository;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The resolved, validated limits of literal search, list and glob, and the one set of limits of a
 * search request.
 *
 * <p>Every surface that takes a search checks its number of matches, its context lines and its time
 * budget with {@link #requireMatches}, {@link #requireContextLines} and {@link #requireTimeMs}: the
 * scanner, the index composite and its {@code IndexLimits}, the {@code repo_search} tool's
 * arguments and options, and the engine's {@code SearchOpts} (whose ranked limit is a number of
 * matches); the command line and the MCP server state the same hard caps in their own words.
 *
 * <p>Build one with {@link #builder()}; every option left unset takes its default, every option set is
 * validated against its hard cap when {@link Builder#build()} runs (rejecting, never clamping, with the
 * messages of {@link CodingLimits}). {@link #defaults()} is the all-default instance.
 *
 * @param maxDepth deepest directory level walked below the start (default 32, hard 128)
 * @param maxEntries directory entries visited per operation (default 10 000, hard 100 000)
 * @param maxFiles files visited per operation (default 10 000, hard 100 000)
 * @param maxResults list/glob page size (default 1 000, hard 10 000)
 * @param maxConcurrency validated for parity with the reference (default 8, hard 32) but unused:
 *     the scanner reads one file at a time so results are deterministic
 * @param maxScanBytes line bytes a search may read in total (default 64 MiB, hard 1 GiB)
 * @param maxFileBytes larger files are skipped as oversize (default 8 MiB, hard 64 MiB)
 * @param maxMatches matches a search may return (default 1 000, hard 10 000)
 * @param maxPatternBytes UTF-8 bytes of a query or glob pattern (default 512, hard 4 096)
 * @param maxLineBytes the most UTF-8 bytes of a line a result holds (default 50 KiB, hard 1 MiB):
 *     every line is searched however long; a longer matching line is reported as a window around
 *     the match ({@link LiteralPattern#window}), a longer context line as its first bytes
 * @param maxContextLines context lines before and after a match (default 5, hard 20; zero allowed)
 * @param maxTimeMs wall-clock budget of one operation (default 30 000, hard 300 000)
 * @param exclude base names never entered (default {@code .git}, {@code node_modules}, {@code dist}); a
 *     supplied list replaces the default
 */
public record RepositoryLimits(
    int maxDepth,
    int maxEntries,
    int maxFiles,
    int maxResults,
    int maxConcurrency,
    long maxScanBytes,
    long maxFileBytes,
    int maxMatches,
    int maxPatternBytes,
    int maxLineBytes,
    int maxContextLines,
    long maxTimeMs,
    List<String> exclude) {

  public static final int DEFAULT_MAX_REPO_DEPTH = 32;
  public static final int HARD_MAX_REPO_DEPTH = 128;
  public static final int DEFAULT_MAX_REPO_ENTRIES = 10_000;
  public static final int HARD_MAX_REPO_ENTRIES = 100_000;
  public static final int DEFAULT_MAX_REPO_FILES = 10_000;
  public static final int HARD_MAX_REPO_FILES = 100_000;
  public static final int DEFAULT_MAX_REPO_RESULTS = 1_000;
  public static final int HARD_MAX_REPO_RESULTS = 10_000;
  public static final int DEFAULT_MAX_REPO_CONCURRENCY = 8;
  public static final int HARD_MAX_REPO_CONCURRENCY = 32;
  public static final long DEFAULT_MAX_SEARCH_SCAN_BYTES = 64L * 1024 * 1024;
  public static final long HARD_MAX_SEARCH_SCAN_BYTES = 1024L * 1024 * 1024;
  public static final long DEFAULT_MAX_SEARCH_FILE_BYTES = 8L * 1024 * 1024;
  public static final long HARD_MAX_SEARCH_FILE_BYTES = 64L * 1024 * 1024;
  public static final int DEFAULT_MAX_SEARCH_MATCHES = 1_000;
  public static final int HARD_MAX_SEARCH_MATCHES = 10_000;
  public static final int DEFAULT_MAX_SEARCH_PATTERN_BYTES = 512;
  public static final int HARD_MAX_SEARCH_PATTERN_BYTES = 4_096;
  public static final int DEFAULT_MAX_SEARCH_LINE_BYTES = 50 * 1024;
  public static final int HARD_MAX_SEARCH_LINE_BYTES = 1024 * 1024;
  public static final int DEFAULT_MAX_SEARCH_CONTEXT_LINES = 5;
  public static final int HARD_MAX_SEARCH_CONTEXT_LINES = 20;
  public static final long DEFAULT_MAX_SEARCH_TIME_MS = 30_000;
  public static final long HARD_MAX_SEARCH_TIME_MS = 300_000;
  /** Bytes sniffed for a NUL to classify a file as binary (not configurable). */
  public static final int DEFAULT_BINARY_SNIFF_BYTES = 8_192;
  /** The largest list/glob {@code offset} a request may ask for. */
  public static final int HARD_MAX_REPO_OFFSET = 100_000;
  /** Base names excluded when no exclude list is supplied. */
  public static final List<String> DEFAULT_REPO_EXCLUDE = List.of(".git", "node_modules", "dist");

  private static final RepositoryLimits DEFAULTS = builder().build();

  /** Validates and freezes the components; see {@link Builder} for the rules. */
  public RepositoryLimits {
    CodingLimits.requirePositive("maxDepth", maxDepth, HARD_MAX_REPO_DEPTH);
    CodingLimits.requirePositive("maxEntries", maxEntries, HARD_MAX_REPO_ENTRIES);
    CodingLimits.requirePositive("maxFiles", maxFiles, HARD_MAX_REPO_FILES);
    CodingLimits.requirePositive("maxResults", maxResults, HARD_MAX_REPO_RESULTS);
    CodingLimits.requirePositive("maxConcurrency", maxConcurrency, HARD_MAX_REPO_CONCURRENCY);
    CodingLimits.requirePositive("maxScanBytes", maxScanBytes, HARD_MAX_SEARCH_SCAN_BYTES);
    CodingLimits.requirePositive("maxFileBytes", maxFileBytes, HARD_MAX_SEARCH_FILE_BYTES);
    requireMatches("maxMatches", maxMatches);
    CodingLimits.requirePositive("maxPatternBytes", maxPatternBytes, HARD_MAX_SEARCH_PATTERN_BYTES);
    CodingLimits.requirePositive("maxLineBytes", maxLineBytes, HARD_MAX_SEARCH_LINE_BYTES);
    requireContextLines("maxContextLines", maxContextLines);
    requireTimeMs("maxTimeMs", maxTimeMs);
    exclude = List.copyOf(exclude);
  }

  /**
   * The one check of a search's number of matches (a request's {@code maxMatches}, a ranked
   * search's limit, an index's hits per query): 1..{@value #HARD_MAX_SEARCH_MATCHES}.
   *
   * @throws IllegalArgumentException {@code "<name> must be a positive safe integer at most 10000"}
   */
  public static int requireMatches(String name, Number value) {
    return (int) CodingLimits.requirePositive(name, value, HARD_MAX_SEARCH_MATCHES);
  }

  /**
   * The one check of a search's context lines on either side of a match:
   * 0..{@value #HARD_MAX_SEARCH_CONTEXT_LINES}.
   *
   * @throws IllegalArgumentException {@code "<name> must be a non-negative safe integer at most
   *     20"}
   */
  public static int requireContextLines(String name, Number value) {
    return (int) CodingLimits.requireNonNegative(name, value, HARD_MAX_SEARCH_CONTEXT_LINES);
  }

  /**
   * The one check of a search's time budget in milliseconds: 1..{@value #HARD_MAX_SEARCH_TIME_MS}.
   *
   * @throws IllegalArgumentException {@code "<name> must be a positive safe integer at most
   *     300000"}
   */
  public static long requireTimeMs(String name, Number value) {
    return CodingLimits.requirePositive(name, value, HARD_MAX_SEARCH_TIME_MS);
  }

  /** The all-default limits. */
  public static RepositoryLimits defaults() {
    return DEFAULTS;
  }

  /** Returns a builder whose unset options take their defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Collects optional limit values; {@link #build()} applies defaults, then validates. */
  public static final class Builder {
    private @Nullable Number maxDepth;
    private @Nullable Number maxEntries;
    private @Nullable Number maxFiles;
    private @Nullable Number maxResults;
    private @Nullable Number maxConcurrency;
    private @Nullable Number maxScanBytes;
    private @Nullable Number maxFileBytes;
    private @Nullable Number maxMatches;
    private @Nullable Number maxPatternBytes;
    private @Nullable Number maxLineBytes;
    private @Nullable Number maxContextLines;
    private @Nullable Number maxTimeMs;
    private @Nullable List<String> exclude;

    private Builder() {}

    public Builder maxDepth(Number value) {
      this.maxDepth = value;
      return this;
    }

    public Builder maxEntries(Number value) {
      this.maxEntries = value;
      return this;
    }

    public Builder maxFiles(Number value) {
      this.maxFiles = value;
      return this;
    }

    public Builder maxResults(Number value) {
      this.maxResults = value;
      return this;
    }

    public Builder maxConcurrency(Number value) {
      this.maxConcurrency = value;
      return this;
    }

    public Builder maxScanBytes(Number value) {
      this.maxScanBytes = value;
      return this;
    }

    public Builder maxFileBytes(Number value) {
      this.maxFileBytes = value;
      return this;
    }

    public Builder maxMatches(Number value) {
      this.maxMatches = value;
      return this;
    }

    public Builder maxPatternBytes(Number value) {
      this.maxPatternBytes = value;
      return this;
    }

    public Builder maxLineBytes(Number value) {
      this.maxLineBytes = value;
      return this;
    }

    public Builder maxContextLines(Number value) {
      this.maxContextLines = value;
      return this;
    }

    public Builder maxTimeMs(Number value) {
      this.maxTimeMs = value;
      return this;
    }

    /** Replaces the default exclude list of base names. */
    public Builder exclude(List<String> names) {
      this.exclude = List.copyOf(names);
      return this;
    }

    /**
     * Applies defaults to unset options and validates every value.
     *
     * @throws IllegalArgumentException naming the first invalid option, as {@link CodingLimits} words it
     */
    public RepositoryLimits build() {
      return new RepositoryLimits(
          (int) positive("maxDepth", maxDepth, DEFAULT_MAX_REPO_DEPTH, HARD_MAX_REPO_DEPTH),
          (int) positive("maxEntries", maxEntries, DEFAULT_MAX_REPO_ENTRIES, HARD_MAX_REPO_ENTRIES),
          (int) positive("maxFiles", maxFiles, DEFAULT_MAX_REPO_FILES, HARD_MAX_REPO_FILES),
          (int) positive("maxResults", maxResults, DEFAULT_MAX_REPO_RESULTS, HARD_MAX_REPO_RESULTS),
          (int) positive("maxConcurrency", maxConcurrency, DEFAULT_MAX_REPO_CONCURRENCY,
              HARD_MAX_REPO_CONCURRENCY),
          positive("maxScanBytes", maxScanBytes, DEFAULT_MAX_SEARCH_SCAN_BYTES,
              HARD_MAX_SEARCH_SCAN_BYTES),
          positive("maxFileBytes", maxFileBytes, DEFAULT_MAX_SEARCH_FILE_BYTES,
              HARD_MAX_SEARCH_FILE_BYTES),
          requireMatches("maxMatches",
              maxMatches == null ? DEFAULT_MAX_SEARCH_MATCHES : maxMatches),
          (int) positive("maxPatternBytes", maxPatternBytes, DEFAULT_MAX_SEARCH_PATTERN_BYTES,
              HARD_MAX_SEARCH_PATTERN_BYTES),
          (int) positive("maxLineBytes", maxLineBytes, DEFAULT_MAX_SEARCH_LINE_BYTES,
              HARD_MAX_SEARCH_LINE_BYTES),
          requireContextLines("maxContextLines",
              maxContextLines == null ? DEFAULT_MAX_SEARCH_CONTEXT_LINES : maxContextLines),
          requireTimeMs("maxTimeMs", maxTimeMs == null ? DEFAULT_MAX_SEARCH_TIME_MS : maxTimeMs),
          exclude == null ? DEFAULT_REPO_EXCLUDE : exclude);
    }

    private static long positive(String name, @Nullable Number value, long def, long hard) {
      return CodingLimits.requirePositive(name, value == null ? def : value, hard);
    }
  }
}
