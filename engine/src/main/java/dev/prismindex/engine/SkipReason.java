package dev.prismindex.engine;

/** Why the walker or the indexer left a file out. */
public enum SkipReason {
  /** Larger than {@link HybridIndexOptions#maxFileBytes()}. */
  OVERSIZE,
  /** A NUL byte in the first 8 KiB. */
  BINARY,
  /** {@code *.min.js}, {@code *.min.css}, or a very long average line. */
  MINIFIED,
  /** A lock file such as {@code package-lock.json} or {@code Cargo.lock}. */
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
