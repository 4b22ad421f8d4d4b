package dev.prismindex.engine;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Options of one {@link CodeSearch#search} call. Build with {@link #builder()} or use
 * {@link #lexical(int)}.
 *
 * @param limit the most hits returned (1..{@value #MAX_LIMIT})
 * @param mode which engine answers
 * @param pathScope a repository-relative directory or file the hits must lie in ({@code null}, {@code
 *     ""} or {@code "."} for the whole repository; {@code src/} and {@code ./src} mean {@code src})
 * @param fusion how HYBRID fuses the two rankings (default {@link Fusion#rrf()}; ignored by the
 *     other modes)
 */
public record SearchOpts(int limit, RetrievalMode mode, @Nullable String pathScope,
    Fusion fusion) {

  /** The default number of hits. */
  public static final int DEFAULT_LIMIT = 10;
  /** The largest accepted limit. */
  public static final int MAX_LIMIT = 1000;

  /**
   * Validates the options.
   *
   * @throws IllegalArgumentException when {@code limit} is outside 1..1000 or the scope leaves the
   *     repository
   */
  public SearchOpts {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(fusion, "fusion");
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ": " + limit);
    }
    pathScope = normaliseScope(pathScope);
  }

  /**
   * Options with the default fusion.
   *
   * @throws IllegalArgumentException see {@link SearchOpts#SearchOpts}
   */
  public SearchOpts(int limit, RetrievalMode mode, @Nullable String pathScope) {
    this(limit, mode, pathScope, Fusion.rrf());
  }

  /** Lexical search returning at most {@code limit} hits over the whole repository. */
  public static SearchOpts lexical(int limit) {
    return new SearchOpts(limit, RetrievalMode.LEXICAL, null);
  }

  /** Semantic search returning at most {@code limit} hits over the whole repository. */
  public static SearchOpts semantic(int limit) {
    return new SearchOpts(limit, RetrievalMode.SEMANTIC, null);
  }

  /** Hybrid search (default fusion, {@link Fusion#rrf()}) returning at most {@code limit} hits over the whole repository. */
  public static SearchOpts hybrid(int limit) {
    return new SearchOpts(limit, RetrievalMode.HYBRID, null);
  }

  /** A builder starting from {@link #DEFAULT_LIMIT} hits, lexical mode, whole repository. */
  public static Builder builder() {
    return new Builder();
  }

  static @Nullable String normaliseScope(@Nullable String scope) {
    if (scope == null) {
      return null;
    }
    String s = scope.replace('\\', '/');
    while (s.startsWith("./")) {
      s = s.substring(2);
    }
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    if (s.isEmpty() || s.equals(".")) {
      return null;
    }
    if (s.startsWith("/") || s.equals("..") || s.startsWith("../") || s.contains("/../")
        || s.endsWith("/..")) {
      throw new IllegalArgumentException("path scope must stay inside the repository: " + scope);
    }
    return s;
  }

  /** Builds {@link SearchOpts}. */
  public static final class Builder {
    private int limit = DEFAULT_LIMIT;
    private RetrievalMode mode = RetrievalMode.LEXICAL;
    private @Nullable String pathScope;
    private Fusion fusion = Fusion.rrf();

    private Builder() {}

    public Builder limit(int value) {
      this.limit = value;
      return this;
    }

    public Builder mode(RetrievalMode value) {
      this.mode = Objects.requireNonNull(value, "mode");
      return this;
    }

    public Builder pathScope(@Nullable String value) {
      this.pathScope = value;
      return this;
    }

    /** How HYBRID fuses the rankings (default {@link Fusion#rrf()}). */
    public Builder fusion(Fusion value) {
      this.fusion = Objects.requireNonNull(value, "fusion");
      return this;
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException see {@link SearchOpts#SearchOpts}
     */
    public SearchOpts build() {
      return new SearchOpts(limit, mode, pathScope, fusion);
    }
  }
}
