package dev.prismindex.cli.output;

/**
 * Standard output was closed by its reader ({@code prism-index search q | head -1}). Not an error:
 * the command stops printing and exits 0 without a message.
 */
public final class OutputClosedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  OutputClosedException() {
    super("standard output closed", null, false, false);
  }
}
