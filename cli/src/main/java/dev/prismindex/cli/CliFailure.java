package dev.prismindex.cli;

import org.jspecify.annotations.Nullable;

/**
 * An outcome that ends the command with a non-zero exit code and one line on stderr. The message
 * says what is wrong and, where one exists, the command that fixes it.
 */
final class CliFailure extends Exception {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CliFailure(int exitCode, String message) {
    this(exitCode, message, null);
  }

  CliFailure(int exitCode, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  static CliFailure usage(String message) {
    return new CliFailure(ExitCode.USAGE, message);
  }

  int exitCode() {
    return exitCode;
  }
}
