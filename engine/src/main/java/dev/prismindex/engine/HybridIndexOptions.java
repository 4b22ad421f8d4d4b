package dev.prismindex.engine;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of a {@link HybridIndex}. Build with {@link #builder(Path)}.
 *
 * @param root the repository root (made absolute and normalised)
 * @param home the index home; default {@code <root>/.prism-index}
 * @param include globs a file's repository-relative path must match (any of them) to be indexed;
 *     empty means every file. Java {@code glob:} syntax; a leading {@code **}{@code /} also matches
 *     files at the top level
 * @param exclude globs whose matching files are never indexed
 * @param maxFileBytes larger files are skipped (default {@value #DEFAULT_MAX_FILE_BYTES} bytes =
 *     1 MiB: source files are far smaller; larger ones are nearly always generated or data)
 * @param indexSecrets whether secret-looking files ({@code .env*}, {@code *.pem}, {@code id_rsa*},
 *     ...) are indexed (default false)
 * @param threads worker threads for hashing and chunking (default: available processors)
 * @param clock the clock for commit timestamps and the racy-timestamp rule (tests inject one)
 */
public record HybridIndexOptions(
    Path root,
    Path home,
    List<String> include,
    List<String> exclude,
    long maxFileBytes,
    boolean indexSecrets,
    int threads,
    Clock clock) {

  /** Default {@link #maxFileBytes()}: 1 MiB. */
  public static final long DEFAULT_MAX_FILE_BYTES = 1024L * 1024;
  /** The name of the default index home below the repository root. */
  public static final String DEFAULT_HOME_NAME = ".prism-index";

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
  }

  /** Starts options for the repository at {@code root}. */
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

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException for a non-positive file cap or thread count, or an invalid glob
     */
    public HybridIndexOptions build() {
      Path r = root.toAbsolutePath().normalize();
      return new HybridIndexOptions(r, home == null ? r.resolve(DEFAULT_HOME_NAME) : home, include,
          exclude, maxFileBytes, indexSecrets, threads, clock);
    }
  }
}
