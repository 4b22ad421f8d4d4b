package dev.prismindex.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.repository.AbortSignal;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a tool asks an {@link ExecutionPolicy} to allow.
 *
 * <p>For {@code repo_search}: {@code kind} {@code "repo_search"}, {@code operation} {@code "search"},
 * {@code paths} the requested path (or the workspace root when none was given), {@code risk}
 * {@code "low"}, and {@code metadata} with {@code mode}, {@code outputMode}, {@code caseSensitive},
 * {@code includeHidden}, and, when given, {@code context}, {@code maxMatches}, {@code toolCallId},
 * {@code sessionId} and {@code runId}.
 *
 * @param kind the tool's name
 * @param operation what the tool does
 * @param paths the paths the call touches, as given (not resolved)
 * @param risk the tool's own risk estimate
 * @param metadata the validated arguments and the caller's ids; a copy the policy may keep
 * @param signal the caller's cancellation signal, if any
 */
public record PolicyRequest(
    String kind,
    String operation,
    List<String> paths,
    String risk,
    ObjectNode metadata,
    @Nullable AbortSignal signal) {

  public PolicyRequest {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(operation, "operation");
    paths = List.copyOf(paths);
    Objects.requireNonNull(risk, "risk");
    Objects.requireNonNull(metadata, "metadata");
  }
}
