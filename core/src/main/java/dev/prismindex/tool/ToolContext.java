package dev.prismindex.tool;

import dev.prismindex.repository.AbortSignal;
import org.jspecify.annotations.Nullable;

/**
 * The caller's side of one tool call: its cancellation signal and the ids a host uses to correlate
 * the call (all optional). The ids are passed to the {@link ExecutionPolicy}; the tool itself ignores
 * them.
 *
 * @param signal cancels the call; an already aborted signal fails the call before any work
 * @param toolCallId the id of this call in the host's conversation
 * @param sessionId the host's session
 * @param runId the host's agent run
 */
public record ToolContext(
    @Nullable AbortSignal signal,
    @Nullable String toolCallId,
    @Nullable String sessionId,
    @Nullable String runId) {

  private static final ToolContext EMPTY = new ToolContext(null, null, null, null);

  /** A context with no signal and no ids. */
  public static ToolContext empty() {
    return EMPTY;
  }

  /** A context with only a cancellation signal. */
  public static ToolContext of(AbortSignal signal) {
    return new ToolContext(signal, null, null, null);
  }
}
