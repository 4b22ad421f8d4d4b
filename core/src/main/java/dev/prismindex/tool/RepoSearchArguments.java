package dev.prismindex.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.CodingLimits;
import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The validated arguments of one {@code repo_search} call: what {@link RepoSearchTool#execute} runs,
 * and what a host that executes searches its own way (e.g. an MCP server over the engine) gets from
 * the same validation. Immutable.
 *
 * <p>Use: show a model {@link RepoSearchTool#definition(RepoSearchToolOptions)}, then turn each call's
 * raw JSON into arguments with {@link #parse(JsonNode, Collection)} (or
 * {@link RepoSearchTool#parseArguments(JsonNode)}), answering an {@link IllegalArgumentException}
 * with its message as the tool error; then run the search, e.g. with
 * {@link #toRequest(Path, RepositoryLimits, AbortSignal)}.
 *
 * @param query the text to find, non-empty
 * @param path the directory or file to search as the model wrote it, or {@code null}; not
 *     normalised here (the literal scanner resolves it inside the root; index modes normalise it
 *     with {@link dev.prismindex.repository.RelativePath#normaliseScope})
 * @param mode the requested mode, one of the enabled modes, or {@code null} when the call named
 *     none ({@link RepoSearchTool} then searches {@code literal}; another host may pick its own
 *     default)
 * @param outputMode what to return (default {@link OutputMode#CONTENT})
 * @param caseSensitive whether case must match (default false)
 * @param includeHidden whether names starting with a dot are searched (default false)
 * @param context lines of context (0..20), or {@code null} for the configured default
 * @param maxMatches the most matches (1..10 000), or {@code null} for the configured default
 */
public record RepoSearchArguments(
    String query,
    @Nullable String path,
    @Nullable SearchMode mode,
    OutputMode outputMode,
    boolean caseSensitive,
    boolean includeHidden,
    @Nullable Integer context,
    @Nullable Integer maxMatches) {

  static final String QUERY_REQUIRED = "query is required and must be a non-empty string.";
  static final String REGEX_REMOVED =
      "repo_search no longer supports mode \"regex\"; use literal substring search.";

  public RepoSearchArguments {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(outputMode, "outputMode");
  }

  /**
   * Validates a call's arguments against the enabled {@code modes}, with the contract's rules and
   * messages, in this order: {@code query} must be a non-empty string
   * ({@value #QUERY_REQUIRED}); {@code path} is kept only if it is a string; {@code mode}
   * {@code "regex"} is refused ({@value #REGEX_REMOVED}), any other mode must be the wire name of an
   * enabled mode ({@code unsupported search mode: <m> (enabled: <list>)}); {@code outputMode} must
   * be {@code content}, {@code files_with_matches} or {@code count}
   * ({@code unsupported outputMode: <m>}); {@code caseSensitive} and {@code includeHidden} are true
   * only when exactly JSON {@code true}; {@code context} (0..20) and {@code maxMatches}
   * (1..10 000) must be whole numbers ({@link CodingLimits}' messages). A JSON {@code null} counts
   * as given (and is rejected) for {@code mode}, {@code outputMode}, {@code context} and
   * {@code maxMatches}; unknown keys are ignored.
   *
   * @param arguments the call's arguments object ({@code null} or a non-object counts as empty)
   * @param modes the enabled modes (for a tool, {@link RepoSearchTool#modes()})
   * @throws IllegalArgumentException with the message the tool reports, for the first invalid
   *     argument
   */
  public static RepoSearchArguments parse(@Nullable JsonNode arguments,
      Collection<SearchMode> modes) {
    JsonNode args = arguments != null && arguments.isObject() ? arguments : null;
    JsonNode queryNode = args == null ? null : args.get("query");
    if (queryNode == null || !queryNode.isTextual() || queryNode.textValue().isEmpty()) {
      throw new IllegalArgumentException(QUERY_REQUIRED);
    }
    JsonNode pathNode = args.get("path");
    String path = pathNode != null && pathNode.isTextual() ? pathNode.textValue() : null;
    SearchMode mode = mode(args.get("mode"), modes);
    OutputMode outputMode = outputMode(args.get("outputMode"));
    JsonNode contextNode = args.get("context");
    Integer context = contextNode == null ? null
        : RepositoryLimits.requireContextLines("context", number(contextNode));
    JsonNode maxNode = args.get("maxMatches");
    Integer maxMatches = maxNode == null ? null
        : RepositoryLimits.requireMatches("maxMatches", number(maxNode));
    return new RepoSearchArguments(queryNode.textValue(), path, mode, outputMode,
        isTrue(args.get("caseSensitive")), isTrue(args.get("includeHidden")), context, maxMatches);
  }

  /** The mode to search: {@link #mode()}, or {@link SearchMode#LITERAL} when none was named. */
  public SearchMode effectiveMode() {
    return mode == null ? SearchMode.LITERAL : mode;
  }

  /**
   * The request {@link RepoSearchTool} runs for these arguments: rooted at {@code root}, in
   * {@link #effectiveMode()}, with the configured exclude list and time budget, and the configured
   * context and match cap unless the call set them.
   */
  public RepositorySearchRequest toRequest(Path root, RepositoryLimits limits,
      @Nullable AbortSignal signal) {
    return RepositorySearchRequest.builder(root, query)
        .path(path)
        .mode(effectiveMode())
        .outputMode(outputMode)
        .caseSensitive(caseSensitive)
        .includeHidden(includeHidden)
        .exclude(limits.exclude())
        .context(context != null ? context : limits.maxContextLines())
        .maxMatches(maxMatches != null ? maxMatches : limits.maxMatches())
        .signal(signal)
        .deadlineMs(limits.maxTimeMs())
        .build();
  }

  private static @Nullable SearchMode mode(@Nullable JsonNode node, Collection<SearchMode> modes) {
    if (node == null) {
      return null;
    }
    if (node.isTextual() && node.textValue().equals("regex")) {
      throw new IllegalArgumentException(REGEX_REMOVED);
    }
    EnumSet<SearchMode> enabled = modes.isEmpty()
        ? EnumSet.noneOf(SearchMode.class) : EnumSet.copyOf(modes);
    Optional<SearchMode> parsed = node.isTextual()
        ? SearchMode.fromWireName(node.textValue()).filter(enabled::contains)
        : Optional.empty();
    return parsed.orElseThrow(() -> new IllegalArgumentException("unsupported search mode: "
        + jsString(node) + " (enabled: "
        + enabled.stream().map(SearchMode::wireName).collect(Collectors.joining(", ")) + ")"));
  }

  private static OutputMode outputMode(@Nullable JsonNode node) {
    if (node == null) {
      return OutputMode.CONTENT;
    }
    Optional<OutputMode> parsed = node.isTextual()
        ? OutputMode.fromWireName(node.textValue())
        : Optional.empty();
    return parsed.orElseThrow(
        () -> new IllegalArgumentException("unsupported outputMode: " + jsString(node)));
  }

  private static boolean isTrue(@Nullable JsonNode node) {
    return node != null && node.isBoolean() && node.booleanValue();
  }

  /** The node's number, or NaN (which every validator rejects) when it is not a number. */
  private static Number number(JsonNode node) {
    return node.isNumber() ? node.numberValue() : Double.NaN;
  }

  /** The value as JavaScript's {@code String(value)} shows a scalar; containers as JSON. */
  private static String jsString(JsonNode node) {
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isFloatingPointNumber()) {
      double d = node.doubleValue();
      if (d == Math.rint(d) && Math.abs(d) < 1e21) {
        return Long.toString((long) d);
      }
    }
    return node.isValueNode() ? node.asText() : node.toString();
  }
}
