package dev.prismindex.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * The outcome of one tool call.
 *
 * <p>{@code text} is what a model reads. {@code metadata} is the structured form a host reads: for a
 * successful search the counters, truncation and the raw matches; for an error
 * {@code errorMessage} and, when the error has a stable code, {@code errorCode}. The metadata node
 * belongs to the caller; the tool keeps no reference to it.
 *
 * @param text the rendered result, or the error message for an error
 * @param isError whether the call failed (bad arguments, policy denial, aborted, search error)
 * @param metadata structured details of the result
 */
public record ToolResult(String text, boolean isError, ObjectNode metadata) {

  public ToolResult {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(metadata, "metadata");
  }
}
