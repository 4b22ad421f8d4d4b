package dev.prismindex.cli.command;

/** The process exit codes of the CLI: a stable contract for scripts and agents. */
public final class ExitCode {
  /** The command ran (a search may have found zero hits). */
  public static final int OK = 0;
  /** Anything else went wrong: an I/O error, a locked index, an internal error. */
  public static final int FAILURE = 1;
  /** Bad usage: a missing query, an invalid option value, an unknown option. */
  public static final int USAGE = 2;
  /** The index is missing, corrupt, incompatible or stale beyond the refresh policy. */
  public static final int INDEX = 3;
  /** Semantic or hybrid search was asked and no embedding model (or no vectors) can serve it. */
  public static final int MODEL = 4;

  private ExitCode() {}
}
