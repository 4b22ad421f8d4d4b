package dev.prismindex.cli;

/** The process exit codes of the CLI: a stable contract for scripts and agents. */
final class ExitCode {
  /** The command ran (a search may have found zero hits). */
  static final int OK = 0;
  /** Anything else went wrong: an I/O error, a locked index, an internal error. */
  static final int FAILURE = 1;
  /** Bad usage: a missing query, an invalid option value, an unknown option. */
  static final int USAGE = 2;
  /** The index is missing, corrupt, incompatible or stale beyond the refresh policy. */
  static final int INDEX = 3;
  /** Semantic or hybrid search was asked and no embedding model (or no vectors) can serve it. */
  static final int MODEL = 4;

  private ExitCode() {}
}
