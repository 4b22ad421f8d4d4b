package dev.prismindex.tool;

import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.SearchMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The host's configuration of a {@link RepoSearchTool}. Build one with {@link #builder()}.
 *
 * @param executionPolicy consulted before every search; {@code null} allows every call
 * @param operations what answers the searches; {@code null} means
 *     {@link RepositoryOperations#local(RepositoryLimits) local operations} bound to {@code limits}
 * @param limits the resolved repository limits; the tool passes their {@code exclude},
 *     {@code maxContextLines}, {@code maxMatches} and {@code maxTimeMs} with every search
 * @param modes the search modes the tool exposes (its mode enum is exactly these): always
 *     {@link SearchMode#LITERAL}, no duplicates, in the order literal, indexed_literal, lexical,
 *     semantic, hybrid
 */
public record RepoSearchToolOptions(
    @Nullable ExecutionPolicy executionPolicy,
    @Nullable RepositoryOperations operations,
    RepositoryLimits limits,
    List<SearchMode> modes) {

  /** Normalises {@code modes}: adds literal, drops duplicates, orders them. */
  public RepoSearchToolOptions {
    Objects.requireNonNull(limits, "limits");
    EnumSet<SearchMode> set = EnumSet.of(SearchMode.LITERAL);
    set.addAll(modes);
    modes = List.copyOf(set);
  }

  /** Options with every default: no policy, local operations, default limits, literal mode only. */
  public static RepoSearchToolOptions defaults() {
    return builder().build();
  }

  /** Returns a builder whose unset options take their defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Collects options; {@link #build()} resolves the limits and the mode set, validating both.
   *
   * <p>{@link #maxMatches(Number)}, {@link #maxContextLines(Number)} and {@link #exclude(List)}
   * override the same field of {@link #repository(RepositoryLimits)}.
   */
  public static final class Builder {
    private @Nullable ExecutionPolicy executionPolicy;
    private @Nullable RepositoryOperations operations;
    private RepositoryLimits repository = RepositoryLimits.defaults();
    private @Nullable Number maxMatches;
    private @Nullable Number maxContextLines;
    private @Nullable List<String> exclude;
    private @Nullable List<@Nullable String> modes;

    private Builder() {}

    /** Sets the policy consulted before every search. */
    public Builder executionPolicy(@Nullable ExecutionPolicy value) {
      this.executionPolicy = value;
      return this;
    }

    /** Sets what answers the searches, e.g. the index seam's composite. */
    public Builder operations(@Nullable RepositoryOperations value) {
      this.operations = value;
      return this;
    }

    /** Sets the repository limits (default: {@link RepositoryLimits#defaults()}). */
    public Builder repository(RepositoryLimits value) {
      this.repository = Objects.requireNonNull(value, "repository");
      return this;
    }

    /** Overrides {@code maxMatches} of the repository limits (1..10 000). */
    public Builder maxMatches(@Nullable Number value) {
      this.maxMatches = value;
      return this;
    }

    /** Overrides {@code maxContextLines} of the repository limits (0..20). */
    public Builder maxContextLines(@Nullable Number value) {
      this.maxContextLines = value;
      return this;
    }

    /** Overrides the exclude list of the repository limits (base names never entered). */
    public Builder exclude(@Nullable List<String> names) {
      this.exclude = names == null ? null : List.copyOf(names);
      return this;
    }

    /**
     * Sets the exposed modes by wire name ({@code literal}, {@code indexed_literal},
     * {@code lexical}, {@code semantic}, {@code hybrid}). {@code null} or empty means literal only;
     * literal is always added. Invalid names are rejected by {@link #build()}. The index modes need
     * {@link #operations(RepositoryOperations) operations} that answer them (the index seam's
     * composite with those modes allowed and a backend that declares them).
     */
    public Builder modes(@Nullable Collection<? extends @Nullable String> names) {
      this.modes = names == null ? null : new ArrayList<>(names);
      return this;
    }

    /** Sets the exposed modes; literal is always added. */
    public Builder modes(SearchMode... values) {
      List<@Nullable String> names = new ArrayList<>();
      for (SearchMode mode : values) {
        names.add(mode.wireName());
      }
      this.modes = names;
      return this;
    }

    /**
     * Resolves the limits (overrides applied) and the mode set.
     *
     * @throws IllegalArgumentException {@code "maxMatches must be a positive safe integer at most
     *     10000"}, {@code "maxContextLines must be a non-negative safe integer at most 20"}, or
     *     {@code "unsupported search mode in options.modes: <m>"}
     */
    public RepoSearchToolOptions build() {
      return new RepoSearchToolOptions(executionPolicy, operations, resolveLimits(), parseModes());
    }

    private RepositoryLimits resolveLimits() {
      RepositoryLimits r = repository;
      if (maxMatches == null && maxContextLines == null && exclude == null) {
        return r;
      }
      int matches = maxMatches == null
          ? r.maxMatches()
          : RepositoryLimits.requireMatches("maxMatches", maxMatches);
      int context = maxContextLines == null
          ? r.maxContextLines()
          : RepositoryLimits.requireContextLines("maxContextLines", maxContextLines);
      return new RepositoryLimits(r.maxDepth(), r.maxEntries(), r.maxFiles(), r.maxResults(),
          r.maxConcurrency(), r.maxScanBytes(), r.maxFileBytes(), matches, r.maxPatternBytes(),
          r.maxLineBytes(), context, r.maxTimeMs(), exclude == null ? r.exclude() : exclude);
    }

    private List<SearchMode> parseModes() {
      List<SearchMode> parsed = new ArrayList<>();
      if (modes != null) {
        for (String name : modes) {
          // The contract's tool has no regex mode (its arguments refuse "regex" by name).
          Optional<SearchMode> mode = name == null ? Optional.empty()
              : SearchMode.fromWireName(name).filter(m -> m != SearchMode.REGEX);
          if (mode.isEmpty()) {
            throw new IllegalArgumentException("unsupported search mode in options.modes: " + name);
          }
          parsed.add(mode.get());
        }
      }
      return parsed;
    }
  }
}
