package dev.prismindex.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.index.IndexException;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.RepositoryException;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@code repo_search} agent tool: bounded text search over a workspace, answered by a
 * {@link RepositoryOperations} (the literal scanner, or the index seam's composite for the index
 * modes {@code indexed_literal}, {@code lexical}, {@code semantic} and {@code hybrid}). Its mode enum
 * is exactly the configured {@link RepoSearchToolOptions#modes()}.
 *
 * <p>{@link #definition()} is what a host shows a model; {@link #execute(JsonNode, ToolContext)}
 * validates the model's arguments, asks the {@link ExecutionPolicy}, runs the search and renders the
 * result. {@code execute} never throws for bad input or a failed search: every failure is an error
 * {@link ToolResult} whose text is the failure's message. Instances are immutable and thread-safe.
 *
 * <p><b>One definition for every host.</b> A host that runs searches its own way (e.g. an MCP
 * server over the engine) shows {@link #definition(RepoSearchToolOptions)} and validates each call
 * with {@link RepoSearchArguments#parse} (or {@link #parseArguments}), the same validation
 * {@code execute} uses, so both surfaces accept exactly the same arguments with the same messages.
 */
public final class RepoSearchTool {

  static final String ABORTED = "Operation aborted";
  static final String NO_DECISION = "execution policy returned no decision";
  static final String DENIED = "repo_search was denied by the execution policy";
  static final String NO_RESULT = "repository search returned no result";

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

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

  /**
   * The definition (name, description, argument schema) of a {@code repo_search} tool with these
   * options' modes and limits, for a host that shows the tool but runs searches its own way; equal
   * to {@code create(cwd, options).definition()}.
   */
  public static ToolDefinition definition(RepoSearchToolOptions options) {
    Objects.requireNonNull(options, "options");
    return RepoSearchDefinition.create(options.limits(), options.modes());
  }

  /** The definition shown to a model; a fresh copy on each call. */
  public ToolDefinition definition() {
    return new ToolDefinition(definition.name(), definition.kind(), definition.effect(),
        definition.description(), definition.inputSchema().deepCopy());
  }

  /**
   * The modes this tool accepts (exactly the configured ones), in the order literal,
   * indexed_literal, lexical, semantic, hybrid.
   */
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
    RepoSearchArguments args;
    try {
      args = parseArguments(arguments);
    } catch (IllegalArgumentException invalid) {
      return error(messageOf(invalid), null);
    }
    if (policy != null) {
      ToolResult denied = checkPolicy(policy, args, ctx);
      if (denied != null) {
        return denied;
      }
    }
    RepositorySearchResult result;
    try {
      result = operations.search(args.toRequest(cwd, limits, signal));
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
    return new ToolResult(SearchRendering.text(result, args.outputMode()), false,
        SearchRendering.metadata(result, args.outputMode()));
  }

  /**
   * Validates a call's arguments against {@link #modes()} exactly as {@link #execute} does (see
   * {@link RepoSearchArguments#parse}), for a host that runs the search its own way.
   *
   * @throws IllegalArgumentException with the message {@code execute} would report
   */
  public RepoSearchArguments parseArguments(@Nullable JsonNode arguments) {
    return RepoSearchArguments.parse(arguments, modes);
  }

  private @Nullable ToolResult checkPolicy(ExecutionPolicy policy, RepoSearchArguments args,
      ToolContext ctx) {
    ObjectNode metadata = JSON.objectNode();
    metadata.put("mode", args.effectiveMode().wireName());
    metadata.put("outputMode", args.outputMode().wireName());
    metadata.put("caseSensitive", args.caseSensitive());
    metadata.put("includeHidden", args.includeHidden());
    if (args.context() != null) {
      metadata.put("context", args.context());
    }
    if (args.maxMatches() != null) {
      metadata.put("maxMatches", args.maxMatches());
    }
    putIfPresent(metadata, "toolCallId", ctx.toolCallId());
    putIfPresent(metadata, "sessionId", ctx.sessionId());
    putIfPresent(metadata, "runId", ctx.runId());
    String path = args.path();
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

}
