package dev.prismindex.engine;

/** Why the walker or the indexer left a file out. */
public enum SkipReason {
  /** Larger than {@link HybridIndexOptions#maxFileBytes()}. */
  OVERSIZE,
  /** A NUL byte in the first 8 KiB. */
  BINARY,
  /**
   * {@code *.min.js}, {@code *.min.css}, or a very long average line. No longer a skip: such files
   * are indexed for literal search only ({@link dev.prismindex.engine.walk.FileRules#literalOnly}).
   */
  MINIFIED,
  /**
   * A lock file such as {@code package-lock.json} or {@code Cargo.lock}. No longer a skip: such
   * files are indexed for literal search only.
   */
  LOCK_FILE,
  /** A file that looks like it holds secrets ({@code .env*}, {@code *.pem}, {@code id_rsa*}, ...). */
  SECRET,
  /** Excluded by the configured include/exclude globs. */
  GLOB,
  /** A symbolic link or other non-regular file (never followed). */
  NOT_REGULAR,
  /** The file could not be read. */
  UNREADABLE
}
