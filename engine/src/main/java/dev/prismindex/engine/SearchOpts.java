package dev.prismindex.engine;

import dev.prismindex.repository.CodingLimits;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.SearchMode;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Options of one {@link CodeSearch#search} call. Build with {@link #builder()} or use
 * {@link #lexical(int)} and its siblings.
 *
 * @param limit the most hits returned: for the ranked modes a search's number of matches, checked
 *     as every surface checks it ({@link RepositoryLimits#requireMatches}: 1..10 000); any positive
 *     number for the exact ones ({@link #UNLIMITED}: every match)
 * @param mode which engine answers: LEXICAL, SEMANTIC, HYBRID, or the exact modes LITERAL /
 *     INDEXED_LITERAL (both the exact substring search from the n-gram index, equal to a scan of
 *     the indexed files) and REGEX (a regular expression, planned over the same n-grams and
 *     verified with core's {@link dev.prismindex.repository.RegexPattern}: ripgrep's semantics);
 *     null (the builder's default) for the automatic choice the command line makes: HYBRID when
 *     this process's embedding model can search the index's vectors, else LEXICAL
 *     ({@link EngineStatus#defaultMode()}); {@link SearchResult#mode()} says which answered
 * @param files which files the hits may come from: path scopes, languages and globs
 *     ({@link FileFilter#ALL} for every indexed file); applied inside the search, so a filtered
 *     search still returns up to {@code limit} hits when that many match
 * @param fusion how HYBRID ranks the two engines' candidates (default {@link Fusion#learned()},
 *     the learned ranker; ignored by the other modes)
 * @param caseSensitive whether an exact mode matches case exactly (default false: case is
 *     ignored, as the scanner does); only the exact modes accept true
 * @param auxiliaryWeight the ranked modes' path prior (default {@value #DEFAULT_AUXILIARY_WEIGHT}):
 *     a candidate in a test, example, benchmark, fixture or generated file has its score multiplied
 *     by it unless the query names such files ("test", "example", ...) or the scope lies in one;
 *     1 turns the prior off (see {@code docs/engine.md}, "Ranking")
 * @param contextBefore lines before each hit's line to return in {@link Hit#context()}
 *     ({@link RepositoryLimits#requireContextLines}: 0..20; default 0)
 * @param contextAfter lines after each hit's line to return in {@link Hit#context()} (0..20;
 *     default 0); hits carry a context only when one of the two is positive
 * @param wholeWords REGEX only: a match has no word character right before or after it
 *     (ripgrep's {@code -w})
 * @param maxPerFile the exact modes only: at most this many matches from each file, the first
 *     ones (grep's {@code -m}: the rest of the file is not read); 0 (default) for no cap
 */
public record SearchOpts(int limit, @Nullable SearchMode mode, FileFilter files, Fusion fusion,
    boolean caseSensitive, double auxiliaryWeight, int contextBefore, int contextAfter,
    boolean wholeWords, int maxPerFile) {

  /** The default number of hits. */
  public static final int DEFAULT_LIMIT = 10;
  /** The limit of an exact mode that returns every match. */
  public static final int UNLIMITED = Integer.MAX_VALUE;
  /** The default {@link #auxiliaryWeight()}. */
  public static final double DEFAULT_AUXILIARY_WEIGHT = 0.5;

  /**
   * Validates the options.
   *
   * @throws IllegalArgumentException when {@code limit} is below 1 or, for a ranked mode, over
   *     {@code RepositoryLimits.HARD_MAX_SEARCH_MATCHES}, {@code caseSensitive} is set for a
   *     ranked mode, {@code wholeWords} for another mode than REGEX, {@code maxPerFile} is negative
   *     or set for a ranked mode, {@code auxiliaryWeight} is not in (0, 1], or a context is outside
   *     0..{@code RepositoryLimits.HARD_MAX_SEARCH_CONTEXT_LINES} (the messages of {@link
   *     RepositoryLimits#requireMatches} and {@link RepositoryLimits#requireContextLines})
   */
  public SearchOpts {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(fusion, "fusion");
    if (exact(mode)) {
      CodingLimits.requirePositive("limit", limit, UNLIMITED);
    } else {
      RepositoryLimits.requireMatches("limit", limit);
    }
    if (caseSensitive && !exact(mode)) {
      throw new IllegalArgumentException("caseSensitive applies to the exact modes only: "
          + (mode == null ? "automatic (hybrid or lexical)" : mode.wireName()));
    }
    if (wholeWords && mode != SearchMode.REGEX) {
      throw new IllegalArgumentException("wholeWords applies to the regex mode only: "
          + (mode == null ? "automatic (hybrid or lexical)" : mode.wireName()));
    }
    if (maxPerFile < 0 || maxPerFile > 0 && !exact(mode)) {
      throw new IllegalArgumentException("maxPerFile is 0 (no cap) or, for an exact mode,"
          + " positive: " + maxPerFile + " in " + (mode == null ? "automatic" : mode.wireName()));
    }
    if (!(auxiliaryWeight > 0 && auxiliaryWeight <= 1)) {
      throw new IllegalArgumentException("auxiliaryWeight must be in (0, 1]: " + auxiliaryWeight);
    }
    RepositoryLimits.requireContextLines("contextBefore", contextBefore);
    RepositoryLimits.requireContextLines("contextAfter", contextAfter);
  }

  /**
   * Options with one path scope and no context lines.
   *
   * @param pathScope a repository-relative directory or file the hits must lie in ({@code null},
   *     {@code ""} or {@code "."} for the whole repository; {@code src/} and {@code ./src} mean
   *     {@code src})
   * @throws IllegalArgumentException see {@link SearchOpts#SearchOpts}, and when the scope leaves
   *     the repository
   */
  public SearchOpts(int limit, @Nullable SearchMode mode, @Nullable String pathScope,
      Fusion fusion, boolean caseSensitive, double auxiliaryWeight) {
    this(limit, mode, FileFilter.scope(pathScope), fusion, caseSensitive, auxiliaryWeight, 0, 0,
        false, 0);
  }

  /**
   * Options with the default path prior.
   *
   * @throws IllegalArgumentException see {@link SearchOpts#SearchOpts}
   */
  public SearchOpts(int limit, @Nullable SearchMode mode, @Nullable String pathScope,
      Fusion fusion, boolean caseSensitive) {
    this(limit, mode, pathScope, fusion, caseSensitive, DEFAULT_AUXILIARY_WEIGHT);
  }

  /**
   * Options with the default fusion, ignoring case.
   *
   * @throws IllegalArgumentException see {@link SearchOpts#SearchOpts}
   */
  public SearchOpts(int limit, @Nullable SearchMode mode, @Nullable String pathScope) {
    this(limit, mode, pathScope, Fusion.learned(), false);
  }

  /**
   * Options ignoring case.
   *
   * @throws IllegalArgumentException see {@link SearchOpts#SearchOpts}
   */
  public SearchOpts(int limit, @Nullable SearchMode mode, @Nullable String pathScope,
      Fusion fusion) {
    this(limit, mode, pathScope, fusion, false);
  }

  /** Lexical search returning at most {@code limit} hits over the whole repository. */
  public static SearchOpts lexical(int limit) {
    return new SearchOpts(limit, SearchMode.LEXICAL, null);
  }

  /** Semantic search returning at most {@code limit} hits over the whole repository. */
  public static SearchOpts semantic(int limit) {
    return new SearchOpts(limit, SearchMode.SEMANTIC, null);
  }

  /**
   * Hybrid search (default ranking, {@link Fusion#learned()}) returning at most {@code limit} hits
   * over the whole repository.
   */
  public static SearchOpts hybrid(int limit) {
    return new SearchOpts(limit, SearchMode.HYBRID, null);
  }

  /** Exact substring search returning at most {@code limit} matching lines of the repository. */
  public static SearchOpts literal(int limit, boolean caseSensitive) {
    return new SearchOpts(limit, SearchMode.LITERAL, null, Fusion.learned(), caseSensitive);
  }

  /** Whether hits carry {@link Hit#context()}: a positive context before or after. */
  public boolean wantsContext() {
    return contextBefore > 0 || contextAfter > 0;
  }

  /** These options in {@code resolved} mode (the automatic choice once it is made). */
  public SearchOpts withMode(SearchMode resolved) {
    return new SearchOpts(limit, Objects.requireNonNull(resolved, "resolved"), files, fusion,
        caseSensitive, auxiliaryWeight, contextBefore, contextAfter, wholeWords, maxPerFile);
  }

  /** Whether {@code mode} is answered by the exact substring search (LITERAL, INDEXED_LITERAL). */
  public static boolean literal(@Nullable SearchMode mode) {
    return mode == SearchMode.LITERAL || mode == SearchMode.INDEXED_LITERAL;
  }

  /**
   * Whether {@code mode} answers every exact match in path, line order (LITERAL, INDEXED_LITERAL,
   * REGEX).
   */
  public static boolean exact(@Nullable SearchMode mode) {
    return literal(mode) || mode == SearchMode.REGEX;
  }

  /**
   * A builder starting from {@link #DEFAULT_LIMIT} hits, the automatic mode (hybrid when the model
   * can search the index's vectors, else lexical: the command line's default), whole repository.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link SearchOpts}. */
  public static final class Builder {
    private int limit = DEFAULT_LIMIT;
    private @Nullable SearchMode mode;
    private FileFilter files = FileFilter.ALL;
    private Fusion fusion = Fusion.learned();
    private boolean caseSensitive;
    private double auxiliaryWeight = DEFAULT_AUXILIARY_WEIGHT;
    private int contextBefore;
    private int contextAfter;
    private boolean wholeWords;
    private int maxPerFile;

    private Builder() {}

    /** The most hits returned (default {@value SearchOpts#DEFAULT_LIMIT}). */
    public Builder limit(int value) {
      this.limit = value;
      return this;
    }

    /**
     * Which engine answers (default: null, the automatic choice: hybrid when this process's model
     * can search the index's vectors, else lexical).
     */
    public Builder mode(@Nullable SearchMode value) {
      this.mode = value;
      return this;
    }

    /**
     * The one directory or file the hits must lie in (default: the whole repository); replaces
     * the {@link #files} filter by this scope alone.
     *
     * @throws IllegalArgumentException when the scope leaves the repository
     */
    public Builder pathScope(@Nullable String value) {
      this.files = FileFilter.scope(value);
      return this;
    }

    /** Which files the hits may come from (default {@link FileFilter#ALL}). */
    public Builder files(FileFilter value) {
      this.files = Objects.requireNonNull(value, "files");
      return this;
    }

    /** Lines of context before and after each hit (default 0 and 0). */
    public Builder context(int before, int after) {
      this.contextBefore = before;
      this.contextAfter = after;
      return this;
    }

    /** How HYBRID ranks the candidates (default {@link Fusion#learned()}). */
    public Builder fusion(Fusion value) {
      this.fusion = Objects.requireNonNull(value, "fusion");
      return this;
    }

    /** Whether an exact mode matches case exactly (default false). */
    public Builder caseSensitive(boolean value) {
      this.caseSensitive = value;
      return this;
    }

    /** REGEX only: whole words, ripgrep's {@code -w} (default false). */
    public Builder wholeWords(boolean value) {
      this.wholeWords = value;
      return this;
    }

    /** The exact modes only: at most this many matches from each file (default 0: no cap). */
    public Builder maxPerFile(int value) {
      this.maxPerFile = value;
      return this;
    }

    /** The ranked modes' path prior (default {@value SearchOpts#DEFAULT_AUXILIARY_WEIGHT}). */
    public Builder auxiliaryWeight(double value) {
      this.auxiliaryWeight = value;
      return this;
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException see {@link SearchOpts#SearchOpts}
     */
    public SearchOpts build() {
      return new SearchOpts(limit, mode, files, fusion, caseSensitive, auxiliaryWeight,
          contextBefore, contextAfter, wholeWords, maxPerFile);
    }
  }
}
