package dev.prismindex.engine;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.internal.pipeline.FileStat;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of a {@link HybridIndex}. Build with {@link #builder(Path)}.
 *
 * @param root the repository root (made absolute and normalised)
 * @param home the index home; default {@code <root>/.prism-index}
 * @param include globs that select the files indexed; empty means every file. The one glob
 *     dialect, gitignore's syntax ({@link dev.prismindex.repository.GlobMatcher}, {@code
 *     docs/cli.md} "Glob syntax"): {@code *.java} at any depth, {@code src/} every file below
 *     {@code src}, the last matching glob deciding, {@code !} excluding
 * @param exclude globs (the same syntax) whose files are never indexed, as {@code .gitignore}
 *     lines: the last matching one decides, {@code !} re-admits
 * @param maxFileBytes larger files are indexed for literal and regex search only, never ranked
 *     (default {@value #DEFAULT_MAX_FILE_BYTES} bytes = 1 MiB: source files are far smaller; larger
 *     ones are nearly always generated or data), up to 8 MiB (core's {@code
 *     RepositoryLimits.DEFAULT_MAX_SEARCH_FILE_BYTES}, the exact-search cap, or this value when
 *     larger); files over that are skipped ({@link SkipReason#OVERSIZE})
 * @param indexSecrets whether the built-in secret deny list is off (default false: files named like
 *     secrets, {@code .env*}, {@code *.pem}, {@code id_rsa*}, {@code .git-credentials}, {@code
 *     *.tfstate}, {@code secrets.yaml}, ..., and files holding a private-key block are skipped)
 * @param threads worker threads for hashing and chunking (default: available processors)
 * @param clock the clock for commit timestamps and the racy-timestamp rule (tests inject one)
 * @param semantic whether semantic search is on (default true): false makes the index lexical-only
 *     (no embedding, SEMANTIC and HYBRID refused) without touching vectors already in the index
 * @param embedder the embedding model; {@code null} (the default) means the first
 *     {@link EmbedderProvider} on the class path ({@link EmbedderProvider#findDefault()}), if any
 * @param seamSemanticMode what the seam's {@code semantic} mode runs: {@link SearchMode#HYBRID}
 *     (default) or {@link SearchMode#SEMANTIC}
 * @param embeddingThreads threads calling the embedder during a refresh (default
 *     {@value #DEFAULT_EMBEDDING_THREADS}: the bundled model already uses every core per call, yet a
 *     second caller still gained 5-8 % on two cores, see {@code docs/runs/README.md})
 * @param embeddingCommitInterval how often a refresh commits the vectors embedded so far (default
 *     30 s; {@link Duration#ZERO} commits after every batch), so an interrupted run keeps its work
 * @param maxDepth files below more than this many directories are skipped ({@link
 *     SkipReason#TOO_DEEP}; default {@value FileRules#DEFAULT_MAX_DEPTH}); the walk does not enter
 *     deeper directories, which bounds the freshness probe's cost
 * @param maxPathBytes files whose repository-relative path is longer than this many UTF-8 bytes are
 *     skipped ({@link SkipReason#PATH_TOO_LONG}; default {@value FileRules#DEFAULT_MAX_PATH_BYTES})
 * @param allowSecrets globs (same syntax as {@code include}) re-admitting files the built-in secret
 *     deny list would skip, by name or by private-key content (default none)
 * @param denySecrets globs of further files skipped as {@link SkipReason#SECRET} (default none)
 */
public record HybridIndexOptions(
    Path root,
    Path home,
    List<String> include,
    List<String> exclude,
    long maxFileBytes,
    boolean indexSecrets,
    int threads,
    Clock clock,
    boolean semantic,
    @Nullable Embedder embedder,
    SearchMode seamSemanticMode,
    int embeddingThreads,
    Duration embeddingCommitInterval,
    int maxDepth,
    int maxPathBytes,
    List<String> allowSecrets,
    List<String> denySecrets) {

  /** Default {@link #maxFileBytes()}: 1 MiB. */
  public static final long DEFAULT_MAX_FILE_BYTES = 1024L * 1024;
  /** The name of the default index home below the repository root. */
  public static final String DEFAULT_HOME_NAME = ".prism-index";
  /** Default {@link #embeddingThreads()}. */
  public static final int DEFAULT_EMBEDDING_THREADS = 2;
  /** Default {@link #embeddingCommitInterval()}. */
  public static final Duration DEFAULT_EMBEDDING_COMMIT_INTERVAL = Duration.ofSeconds(30);

  public HybridIndexOptions {
    root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
    home = Objects.requireNonNull(home, "home").toAbsolutePath().normalize();
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    Objects.requireNonNull(clock, "clock");
    if (maxFileBytes < 1) {
      throw new IllegalArgumentException("maxFileBytes must be positive: " + maxFileBytes);
    }
    if (threads < 1 || threads > 256) {
      throw new IllegalArgumentException("threads must be between 1 and 256: " + threads);
    }
    Objects.requireNonNull(seamSemanticMode, "seamSemanticMode");
    if (!seamSemanticMode.needsSemantic()) {
      throw new IllegalArgumentException("seamSemanticMode must be SEMANTIC or HYBRID");
    }
    if (embeddingThreads < 1 || embeddingThreads > 64) {
      throw new IllegalArgumentException(
          "embeddingThreads must be between 1 and 64: " + embeddingThreads);
    }
    Objects.requireNonNull(embeddingCommitInterval, "embeddingCommitInterval");
    if (embeddingCommitInterval.isNegative()) {
      throw new IllegalArgumentException("embeddingCommitInterval must not be negative");
    }
    if (maxDepth < 1 || maxPathBytes < 1) {
      throw new IllegalArgumentException(
          "maxDepth and maxPathBytes must be positive: " + maxDepth + ", " + maxPathBytes);
    }
    allowSecrets = List.copyOf(allowSecrets);
    denySecrets = List.copyOf(denySecrets);
  }

  /** The options before the walk limits and the secret overrides (their defaults). */
  public HybridIndexOptions(Path root, Path home, List<String> include, List<String> exclude,
      long maxFileBytes, boolean indexSecrets, int threads, Clock clock, boolean semantic,
      @Nullable Embedder embedder, SearchMode seamSemanticMode, int embeddingThreads,
      Duration embeddingCommitInterval) {
    this(root, home, include, exclude, maxFileBytes, indexSecrets, threads, clock, semantic,
        embedder, seamSemanticMode, embeddingThreads, embeddingCommitInterval,
        FileRules.DEFAULT_MAX_DEPTH, FileRules.DEFAULT_MAX_PATH_BYTES, List.of(), List.of());
  }

  /** The options of the first engine version: semantic search with the default model. */
  public HybridIndexOptions(Path root, Path home, List<String> include, List<String> exclude,
      long maxFileBytes, boolean indexSecrets, int threads, Clock clock) {
    this(root, home, include, exclude, maxFileBytes, indexSecrets, threads, clock, true, null,
        SearchMode.HYBRID, DEFAULT_EMBEDDING_THREADS, DEFAULT_EMBEDDING_COMMIT_INTERVAL);
  }

  /** Starts options for the repository at {@code root}. */
  /**
   * The largest file exact search (literal, regex) reads: the larger of {@link #maxFileBytes()} and
   * core's scanner cap ({@code RepositoryLimits.DEFAULT_MAX_SEARCH_FILE_BYTES}, 8 MiB), so an
   * indexed answer covers the files an unindexed one (and ripgrep) does. The indexer keeps files up
   * to it for exact search only; the searches verify and locate up to it.
   */
  public long exactMaxFileBytes() {
    return FileStat.exactCap(maxFileBytes);
  }

  public static Builder builder(Path root) {
    return new Builder(root);
  }

  /** Builds {@link HybridIndexOptions}. */
  public static final class Builder {
    private final Path root;
    private @Nullable Path home;
    private List<String> include = List.of();
    private List<String> exclude = List.of();
    private long maxFileBytes = DEFAULT_MAX_FILE_BYTES;
    private boolean indexSecrets;
    private int threads = Runtime.getRuntime().availableProcessors();
    private Clock clock = Clock.systemUTC();
    private boolean semantic = true;
    private @Nullable Embedder embedder;
    private SearchMode seamSemanticMode = SearchMode.HYBRID;
    private int embeddingThreads = DEFAULT_EMBEDDING_THREADS;
    private Duration embeddingCommitInterval = DEFAULT_EMBEDDING_COMMIT_INTERVAL;
    private int maxDepth = FileRules.DEFAULT_MAX_DEPTH;
    private int maxPathBytes = FileRules.DEFAULT_MAX_PATH_BYTES;
    private List<String> allowSecrets = List.of();
    private List<String> denySecrets = List.of();

    private Builder(Path root) {
      this.root = Objects.requireNonNull(root, "root");
    }

    /** Overrides the index home (default {@code <root>/.prism-index}). */
    public Builder home(Path value) {
      this.home = Objects.requireNonNull(value, "home");
      return this;
    }

    public Builder include(List<String> globs) {
      this.include = List.copyOf(globs);
      return this;
    }

    public Builder exclude(List<String> globs) {
      this.exclude = List.copyOf(globs);
      return this;
    }

    public Builder maxFileBytes(long value) {
      this.maxFileBytes = value;
      return this;
    }

    public Builder indexSecrets(boolean value) {
      this.indexSecrets = value;
      return this;
    }

    public Builder threads(int value) {
      this.threads = value;
      return this;
    }

    public Builder clock(Clock value) {
      this.clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /** Switches semantic search on (default) or off (lexical-only). */
    public Builder semantic(boolean value) {
      this.semantic = value;
      return this;
    }

    /** Uses this embedding model instead of the class path's default one. */
    public Builder embedder(Embedder value) {
      this.embedder = Objects.requireNonNull(value, "embedder");
      return this;
    }

    /** What the seam's {@code semantic} mode runs (default {@link SearchMode#HYBRID}). */
    public Builder seamSemanticMode(SearchMode value) {
      this.seamSemanticMode = Objects.requireNonNull(value, "seamSemanticMode");
      return this;
    }

    public Builder embeddingThreads(int value) {
      this.embeddingThreads = value;
      return this;
    }

    public Builder embeddingCommitInterval(Duration value) {
      this.embeddingCommitInterval = Objects.requireNonNull(value, "embeddingCommitInterval");
      return this;
    }

    /** The most directories above an indexed file (default 256). */
    public Builder maxDepth(int value) {
      this.maxDepth = value;
      return this;
    }

    /** The longest indexed repository-relative path in UTF-8 bytes (default 4096). */
    public Builder maxPathBytes(int value) {
      this.maxPathBytes = value;
      return this;
    }

    /** Globs re-admitting files the built-in secret deny list would skip. */
    public Builder allowSecrets(List<String> globs) {
      this.allowSecrets = List.copyOf(globs);
      return this;
    }

    /** Globs of further files skipped as secrets. */
    public Builder denySecrets(List<String> globs) {
      this.denySecrets = List.copyOf(globs);
      return this;
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException for a non-positive file cap or thread count, an invalid
     *     glob, a LEXICAL seam mode, an out-of-range embedding setting, or a non-positive walk
     *     limit
     */
    public HybridIndexOptions build() {
      Path r = root.toAbsolutePath().normalize();
      return new HybridIndexOptions(r, home == null ? r.resolve(DEFAULT_HOME_NAME) : home, include,
          exclude, maxFileBytes, indexSecrets, threads, clock, semantic, embedder,
          seamSemanticMode, embeddingThreads, embeddingCommitInterval, maxDepth, maxPathBytes,
          allowSecrets, denySecrets);
    }
  }
}
