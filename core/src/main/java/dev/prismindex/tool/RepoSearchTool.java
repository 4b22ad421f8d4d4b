package dev.prismindex.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.index.IndexException;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.CodingLimits;
import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.RepositoryException;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The {@code repo_search} agent tool: bounded text search over a workspace, answered by a
 * {@link RepositoryOperations} (the literal scanner, or the index seam's composite for the
 * {@code indexed_literal} and {@code semantic} modes).
 *
 * <p>{@link #definition()} is what a host shows a model; {@link #execute(JsonNode, ToolContext)}
 * validates the model's arguments, asks the {@link ExecutionPolicy}, runs the search and renders the
 * result. {@code execute} never throws for bad input or a failed search: every failure is an error
 * {@link ToolResult} whose text is the failure's message. Instances are immutable and thread-safe.
 */
public final class RepoSearchTool {

  static final String QUERY_REQUIRED = "query is required and must be a non-empty string.";
  static final String REGEX_REMOVED =
      "repo_search no longer supports mode \"regex\"; use literal substring search.";
  static final String ABORTED = "Operation aborted";
  static final String NO_DECISION = "execution policy returned no decision";
  static final String DENIED = "repo_search was denied by the execution policy";
  static final String NO_RESULT = "repository search returned no result";

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final JsonNode NO_ARGUMENTS = JSON.objectNode();

  private final Path cwd;
  private final RepositoryLimits limits;
  private final RepositoryOperations operations;
  private final @Nullable ExecutionPolicy policy;
  private final List<SearchMode> modes;
  private final ToolDefinition definition;

  private RepoSearchTool(Path cwd, RepoSearchToolOptions options) {
    this.cwd = cwd.toAbsolutePath().normalize();
    this.limits = options.limits();
    RepositoryOperations given = options.operations();
    this.operations = given != null ? given : RepositoryOperations.local(limits);
    this.policy = options.executionPolicy();
    this.modes = options.modes();
    this.definition = RepoSearchDefinition.create(limits, modes);
  }

  /**
   * Creates the tool for the workspace {@code cwd} (made absolute and normalised).
   *
   * @param cwd the workspace root: every search runs with it as {@code root}
   * @param options the validated options (see {@link RepoSearchToolOptions#builder()})
   */
  public static RepoSearchTool create(Path cwd, RepoSearchToolOptions options) {
    Objects.requireNonNull(cwd, "cwd");
    Objects.requireNonNull(options, "options");
    return new RepoSearchTool(cwd, options);
  }

  /** Creates the tool with {@link RepoSearchToolOptions#defaults()}: literal search only. */
  public static RepoSearchTool create(Path cwd) {
    return create(cwd, RepoSearchToolOptions.defaults());
  }

  /** The definition shown to a model; a fresh copy on each call. */
  public ToolDefinition definition() {
    return new ToolDefinition(definition.name(), definition.kind(), definition.effect(),
        definition.description(), definition.inputSchema().deepCopy());
  }

  /** The modes this tool accepts, in the order literal, indexed_literal, semantic. */
  public List<SearchMode> modes() {
    return modes;
  }

  /**
   * Runs one search.
   *
   * <p>In order: an aborted {@code context.signal()} fails with {@code "Operation aborted"};
   * {@code query} must be a non-empty string; {@code path} is used only if it is a string;
   * {@code mode} must be one of {@link #modes()}; {@code outputMode} must be {@code content},
   * {@code files_with_matches} or {@code count}; {@code context} (0..20) and {@code maxMatches}
   * (1..10 000) must be whole numbers when given; then the policy decides; then the search runs with
   * the configured exclude list, context, match cap and time budget. A JSON {@code null} counts as
   * given (and is rejected) for {@code mode}, {@code outputMode}, {@code context} and
   * {@code maxMatches}, as in the reference.
   *
   * @param arguments the model's arguments object ({@code null} or a non-object counts as empty)
   * @param context the caller's signal and ids ({@code null} counts as {@link ToolContext#empty()})
   * @return the rendered result, or an error result; never {@code null}
   */
  public ToolResult execute(@Nullable JsonNode arguments, @Nullable ToolContext context) {
    ToolContext ctx = context == null ? ToolContext.empty() : context;
    AbortSignal signal = ctx.signal();
    if (signal != null && signal.isAborted()) {
      return error(ABORTED, null);
    }
    JsonNode args = arguments != null && arguments.isObject() ? arguments : NO_ARGUMENTS;

    JsonNode queryNode = args.get("query");
    if (queryNode == null || !queryNode.isTextual() || queryNode.textValue().isEmpty()) {
      return error(QUERY_REQUIRED, null);
    }
    String query = queryNode.textValue();
    JsonNode pathNode = args.get("path");
    String path = pathNode != null && pathNode.isTextual() ? pathNode.textValue() : null;

    JsonNode modeNode = args.get("mode");
    if (modeNode != null && modeNode.isTextual() && modeNode.textValue().equals("regex")) {
      return error(REGEX_REMOVED, null);
    }
    SearchMode mode = SearchMode.LITERAL;
    if (modeNode != null) {
      Optional<SearchMode> parsed = modeNode.isTextual()
          ? SearchMode.fromWireName(modeNode.textValue()).filter(modes::contains)
          : Optional.empty();
      if (parsed.isEmpty()) {
        return error("unsupported search mode: " + jsString(modeNode) + " (enabled: "
            + modes.stream().map(SearchMode::wireName).collect(Collectors.joining(", ")) + ")",
            null);
      }
      mode = parsed.get();
    }

    JsonNode outputNode = args.get("outputMode");
    OutputMode outputMode = OutputMode.CONTENT;
    if (outputNode != null) {
      Optional<OutputMode> parsed = outputNode.isTextual()
          ? OutputMode.fromWireName(outputNode.textValue())
          : Optional.empty();
      if (parsed.isEmpty()) {
        return error("unsupported outputMode: " + jsString(outputNode), null);
      }
      outputMode = parsed.get();
    }

    boolean caseSensitive = isTrue(args.get("caseSensitive"));
    boolean includeHidden = isTrue(args.get("includeHidden"));
    Integer contextLines = null;
    Integer maxMatches = null;
    try {
      JsonNode contextNode = args.get("context");
      if (contextNode != null) {
        contextLines = (int) CodingLimits.requireNonNegative("context", number(contextNode),
            RepositoryLimits.HARD_MAX_SEARCH_CONTEXT_LINES);
      }
      JsonNode maxNode = args.get("maxMatches");
      if (maxNode != null) {
        maxMatches = (int) CodingLimits.requirePositive("maxMatches", number(maxNode),
            RepositoryLimits.HARD_MAX_SEARCH_MATCHES);
      }
    } catch (IllegalArgumentException invalid) {
      return error(messageOf(invalid), null);
    }

    if (policy != null) {
      ToolResult denied = checkPolicy(policy, path, mode, outputMode, caseSensitive, includeHidden,
          contextLines, maxMatches, ctx);
      if (denied != null) {
        return denied;
      }
    }

    RepositorySearchRequest request = RepositorySearchRequest.builder(cwd, query)
        .path(path)
        .mode(mode)
        .outputMode(outputMode)
        .caseSensitive(caseSensitive)
        .includeHidden(includeHidden)
        .exclude(limits.exclude())
        .context(contextLines != null ? contextLines : limits.maxContextLines())
        .maxMatches(maxMatches != null ? maxMatches : limits.maxMatches())
        .signal(signal)
        .deadlineMs(limits.maxTimeMs())
        .build();
    RepositorySearchResult result;
    try {
      result = operations.search(request);
    } catch (IndexException failure) {
      return error(messageOf(failure), failure.code().name());
    } catch (RepositoryException failure) {
      return error(messageOf(failure), failure.code());
    } catch (RuntimeException failure) {
      return error(messageOf(failure), null);
    }
    if (result == null) {
      return error(NO_RESULT, null);
    }
    return new ToolResult(SearchRendering.text(result, outputMode), false,
        SearchRendering.metadata(result, outputMode));
  }

  private @Nullable ToolResult checkPolicy(ExecutionPolicy policy, @Nullable String path,
      SearchMode mode, OutputMode outputMode, boolean caseSensitive, boolean includeHidden,
      @Nullable Integer contextLines, @Nullable Integer maxMatches, ToolContext ctx) {
    ObjectNode metadata = JSON.objectNode();
    metadata.put("mode", mode.wireName());
    metadata.put("outputMode", outputMode.wireName());
    metadata.put("caseSensitive", caseSensitive);
    metadata.put("includeHidden", includeHidden);
    if (contextLines != null) {
      metadata.put("context", contextLines);
    }
    if (maxMatches != null) {
      metadata.put("maxMatches", maxMatches);
    }
    putIfPresent(metadata, "toolCallId", ctx.toolCallId());
    putIfPresent(metadata, "sessionId", ctx.sessionId());
    putIfPresent(metadata, "runId", ctx.runId());
    String target = path != null && !path.isEmpty() ? path : cwd.toString();
    PolicyRequest request = new PolicyRequest(
        RepoSearchDefinition.NAME, "search", List.of(target), "low", metadata, ctx.signal());
    PolicyDecision decision;
    try {
      decision = policy.evaluate(request);
    } catch (RuntimeException failure) {
      return error(messageOf(failure), null);
    }
    if (decision == null) {
      return error(NO_DECISION, null);
    }
    if (decision.allowed()) {
      return null;
    }
    String reason = decision.reason();
    return error(reason == null || reason.isBlank() ? DENIED : reason, null);
  }

  private static void putIfPresent(ObjectNode node, String key, @Nullable String value) {
    if (value != null) {
      node.put(key, value);
    }
  }

  /**
   * An error result: the text is the (escaped) message; the metadata holds the exact message and,
   * when known, the stable error code.
   */
  private static ToolResult error(String message, @Nullable String code) {
    ObjectNode metadata = JSON.objectNode();
    metadata.put("errorMessage", message);
    if (code != null) {
      metadata.put("errorCode", code);
    }
    return new ToolResult(SafeText.escape(message), true, metadata);
  }

  /** The exception's message, or its class's simple name when it has none. */
  private static String messageOf(RuntimeException failure) {
    String message = failure.getMessage();
    return message == null || message.isEmpty() ? failure.getClass().getSimpleName() : message;
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
