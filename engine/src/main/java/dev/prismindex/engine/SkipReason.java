package dev.prismindex.engine;

/** Why the walker or the indexer left a file out. */
public enum SkipReason {
  /**
   * Larger than the exact-search cap: 8 MiB (core's {@code
   * RepositoryLimits.DEFAULT_MAX_SEARCH_FILE_BYTES}), or {@link HybridIndexOptions#maxFileBytes()}
   * when larger; a file between the two is indexed for literal and regex search only.
   */
  OVERSIZE,
  /** A NUL byte in the first 8 KiB. */
  BINARY,
  /**
   * {@code *.min.js}, {@code *.min.css}, or a very long average line. No longer a skip: such files
   * are indexed for literal search only ({@link dev.prismindex.engine.internal.walk.FileRules#literalOnly}).
   */
  MINIFIED,
  /**
   * A lock file such as {@code package-lock.json} or {@code Cargo.lock}. No longer a skip: such
   * files are indexed for literal search only.
   */
  LOCK_FILE,
  /**
   * A file whose name is on the secret deny list ({@code .env*}, {@code *.pem}, {@code id_rsa*},
   * {@code .git-credentials}, {@code *.tfstate}, {@code secrets.yaml}, ...; see {@code
   * docs/engine.md}) or matches {@link HybridIndexOptions#denySecrets()}.
   */
  SECRET,
  /** A file holding a private-key block ({@code -----BEGIN ... PRIVATE KEY-----}) near its start. */
  PRIVATE_KEY,
  /** Below more than {@link HybridIndexOptions#maxDepth()} directories. */
  TOO_DEEP,
  /** A repository-relative path longer than {@link HybridIndexOptions#maxPathBytes()} bytes. */
  PATH_TOO_LONG,
  /** Excluded by the configured include/exclude globs. */
  GLOB,
  /** A symbolic link or other non-regular file (never followed). */
  NOT_REGULAR,
  /** The file could not be read. */
  UNREADABLE
}
