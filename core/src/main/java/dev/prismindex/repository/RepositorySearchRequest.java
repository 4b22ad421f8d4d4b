package dev.prismindex.repository;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A search for a literal substring or a regular expression (or, through the index seam, an indexed
 * or semantic query).
 *
 * <p>Optional knobs left {@code null} take the operation's resolved limits; set knobs are validated
 * when the search runs. Build with {@link #builder(Path, String)}.
 *
 * @param root the workspace root; every result path is relative to it
 * @param query the text to find: a plain substring in {@link SearchMode#LITERAL} mode (never a
 *     regular expression), a pattern ({@link RegexPattern}) in {@link SearchMode#REGEX} mode
 * @param path optional start below the root (file or directory), resolved inside the root
 * @param mode how to answer; {@code null} means {@link SearchMode#LITERAL}
 * @param outputMode how a tool renders the result; operations ignore it
 * @param caseSensitive whether case must match (default: case-insensitive)
 * @param wholeWords regex mode only: a match may have no word character right before or after it
 *     (ripgrep's {@code -w})
 * @param includeHidden whether names starting with {@code .} are walked
 * @param exclude base names never entered; {@code null} uses the limits' list
 * @param context lines of context before and after each match (0..20)
 * @param maxMatches most matches returned (1..10 000)
 * @param signal cancels the search; an aborted search returns what it found, truncated by
 *     {@link TruncationReason#ABORT}
 * @param deadlineMs wall-clock budget in milliseconds (1..300 000)
 */
public record RepositorySearchRequest(
    Path root,
    String query,
    @Nullable String path,
    @Nullable SearchMode mode,
    @Nullable OutputMode outputMode,
    boolean caseSensitive,
    boolean wholeWords,
    boolean includeHidden,
    @Nullable List<String> exclude,
    @Nullable Integer context,
    @Nullable Integer maxMatches,
    @Nullable AbortSignal signal,
    @Nullable Long deadlineMs) {

  public RepositorySearchRequest {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(query, "query");
    exclude = exclude == null ? null : List.copyOf(exclude);
  }

  /** The mode, defaulting to {@link SearchMode#LITERAL}. */
  public SearchMode effectiveMode() {
    return mode == null ? SearchMode.LITERAL : mode;
  }

  /** Starts a request for {@code query} under {@code root}. */
  public static Builder builder(Path root, String query) {
    return new Builder(root, query);
  }

  /** Returns a builder holding this request's values. */
  public Builder toBuilder() {
    Builder b = new Builder(root, query);
    b.path = path;
    b.mode = mode;
    b.outputMode = outputMode;
    b.caseSensitive = caseSensitive;
    b.wholeWords = wholeWords;
    b.includeHidden = includeHidden;
    b.exclude = exclude;
    b.context = context;
    b.maxMatches = maxMatches;
    b.signal = signal;
    b.deadlineMs = deadlineMs;
    return b;
  }

  /** Builds a {@link RepositorySearchRequest}. */
  public static final class Builder {
    private final Path root;
    private final String query;
    private @Nullable String path;
    private @Nullable SearchMode mode;
    private @Nullable OutputMode outputMode;
    private boolean caseSensitive;
    private boolean wholeWords;
    private boolean includeHidden;
    private @Nullable List<String> exclude;
    private @Nullable Integer context;
    private @Nullable Integer maxMatches;
    private @Nullable AbortSignal signal;
    private @Nullable Long deadlineMs;

    private Builder(Path root, String query) {
      this.root = root;
      this.query = query;
    }

    public Builder path(@Nullable String value) {
      this.path = value;
      return this;
    }

    public Builder mode(@Nullable SearchMode value) {
      this.mode = value;
      return this;
    }

    public Builder outputMode(@Nullable OutputMode value) {
      this.outputMode = value;
      return this;
    }

    public Builder caseSensitive(boolean value) {
      this.caseSensitive = value;
      return this;
    }

    /** Regex mode only: whole words ({@code -w}). */
    public Builder wholeWords(boolean value) {
      this.wholeWords = value;
      return this;
    }

    public Builder includeHidden(boolean value) {
      this.includeHidden = value;
      return this;
    }

    public Builder exclude(@Nullable List<String> value) {
      this.exclude = value;
      return this;
    }

    public Builder context(@Nullable Integer value) {
      this.context = value;
      return this;
    }

    public Builder maxMatches(@Nullable Integer value) {
      this.maxMatches = value;
      return this;
    }

    public Builder signal(@Nullable AbortSignal value) {
      this.signal = value;
      return this;
    }

    public Builder deadlineMs(@Nullable Long value) {
      this.deadlineMs = value;
      return this;
    }

    public RepositorySearchRequest build() {
      return new RepositorySearchRequest(root, query, path, mode, outputMode, caseSensitive,
          wholeWords, includeHidden, exclude, context, maxMatches, signal, deadlineMs);
    }
  }
}
