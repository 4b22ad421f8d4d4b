package dev.prismindex.repository;

/**
 * Internal control flow: an operation must stop because its caller aborted ({@link
 * TruncationReason#ABORT}) or its deadline passed ({@link TruncationReason#TIME}). Operations catch
 * it and return a truncated result; it never reaches a caller.
 */
final class OperationStopped extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final TruncationReason reason;

  OperationStopped(TruncationReason reason) {
    super(reason == TruncationReason.ABORT
        ? "Operation aborted" : "Repository operation exceeded time limit", null, false, false);
    this.reason = reason;
  }

  TruncationReason reason() {
    return reason;
  }
}
