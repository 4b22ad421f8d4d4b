package dev.prismindex.repository;

import org.jspecify.annotations.Nullable;

/**
 * Options of {@link RepositoryOperations#gitAware}. Build with {@link #builder()}.
 *
 * @param limits the limits of every operation
 * @param fallback the operations used when the root is not inside a git work tree or git is absent;
 *     {@code null} means {@link RepositoryOperations#local(RepositoryLimits)} with {@code limits}
 * @param includeIgnored whether untracked files that git ignores are listed too (host-only)
 * @param maxLsFilesOutputBytes cap on {@code git ls-files} output (default 8 MiB, hard 64 MiB)
 * @param gitExecutable the git program to run (default {@code git}, found on the {@code PATH})
 * @param gitTimeoutMs cap on one git invocation (default 120 000, hard 600 000)
 */
public record GitAwareOptions(
    RepositoryLimits limits,
    @Nullable RepositoryOperations fallback,
    boolean includeIgnored,
    long maxLsFilesOutputBytes,
    String gitExecutable,
    long gitTimeoutMs) {

  public static final long DEFAULT_MAX_LS_FILES_OUTPUT_BYTES = 8L * 1024 * 1024;
  public static final long HARD_MAX_LS_FILES_OUTPUT_BYTES = 64L * 1024 * 1024;
  public static final long DEFAULT_GIT_TIMEOUT_MS = 120_000;
  public static final long HARD_GIT_TIMEOUT_MS = 600_000;

  public GitAwareOptions {
    CodingLimits.requirePositive(
        "maxLsFilesOutputBytes", maxLsFilesOutputBytes, HARD_MAX_LS_FILES_OUTPUT_BYTES);
    CodingLimits.requirePositive("gitTimeoutMs", gitTimeoutMs, HARD_GIT_TIMEOUT_MS);
    if (gitExecutable.isBlank()) {
      throw new IllegalArgumentException("gitExecutable must be non-empty");
    }
  }

  /** The default options: default limits, local fallback, ignored files hidden. */
  public static GitAwareOptions defaults() {
    return builder().build();
  }

  /** Returns a builder with every option at its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link GitAwareOptions}. */
  public static final class Builder {
    private RepositoryLimits limits = RepositoryLimits.defaults();
    private @Nullable RepositoryOperations fallback;
    private boolean includeIgnored;
    private Number maxLsFilesOutputBytes = DEFAULT_MAX_LS_FILES_OUTPUT_BYTES;
    private String gitExecutable = "git";
    private Number gitTimeoutMs = DEFAULT_GIT_TIMEOUT_MS;

    private Builder() {}

    public Builder limits(RepositoryLimits value) {
      this.limits = value;
      return this;
    }

    public Builder fallback(@Nullable RepositoryOperations value) {
      this.fallback = value;
      return this;
    }

    public Builder includeIgnored(boolean value) {
      this.includeIgnored = value;
      return this;
    }

    public Builder maxLsFilesOutputBytes(Number value) {
      this.maxLsFilesOutputBytes = value;
      return this;
    }

    public Builder gitExecutable(String value) {
      this.gitExecutable = value;
      return this;
    }

    public Builder gitTimeoutMs(Number value) {
      this.gitTimeoutMs = value;
      return this;
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException for a value outside its limits
     */
    public GitAwareOptions build() {
      return new GitAwareOptions(limits, fallback, includeIgnored,
          CodingLimits.requirePositive("maxLsFilesOutputBytes", maxLsFilesOutputBytes,
              HARD_MAX_LS_FILES_OUTPUT_BYTES),
          gitExecutable,
          CodingLimits.requirePositive("gitTimeoutMs", gitTimeoutMs, HARD_GIT_TIMEOUT_MS));
    }
  }
}
