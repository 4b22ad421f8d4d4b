package dev.prismindex.cli.command;

import org.jspecify.annotations.Nullable;

/**
 * An outcome that ends the command with a non-zero exit code and one line on stderr. The message
 * says what is wrong and, where one exists, the command that fixes it.
 */
public final class CliFailure extends Exception {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  public CliFailure(int exitCode, String message) {
    this(exitCode, message, null);
  }

  public CliFailure(int exitCode, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public static CliFailure usage(String message) {
    return new CliFailure(ExitCode.USAGE, message);
  }

  public int exitCode() {
    return exitCode;
  }
}
