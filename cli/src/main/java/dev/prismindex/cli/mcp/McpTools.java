package dev.prismindex.cli.mcp;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.command.SearchRequests;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.command.WorkspaceBackend;
import dev.prismindex.cli.output.JsonObjects;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.tool.SafeText;
import dev.prismindex.tool.ToolDefinition;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools of {@code prism-index mcp}: {@code repo_search}, {@code index_status} and
 * {@code reindex}, with their schemas, over a {@link Backend}. A handler validates the arguments,
 * runs the request exactly as the command line would ({@code search --json}, {@code status --json},
 * {@code index --json}) and answers text for the model plus the CLI's JSON objects as structured
 * content. A handler never throws: bad arguments and failures are tool errors ({@code isError}).
 * Thread-safe: searches run concurrently; reindex runs one at a time.
 */
final class McpTools {

  static final String SEARCH = "repo_search";
  static final String STATUS = "index_status";
  static final String REINDEX = "reindex";

  private static final Logger LOG = LoggerFactory.getLogger(McpTools.class);
  private static final TypeRef<Map<String, Object>> OBJECT = new TypeRef<>() {};
  private static final Set<String> REINDEX_ARGS = Set.of("full");

  private final Backend backend;
  private final Target target;
  private final boolean semantic;
  private final McpSearch search;
  private final int maxRefreshFiles;
  private final McpJsonMapper mapper;
  private final ReentrantLock reindexing = new ReentrantLock();

  /**
   * @param backend runs the requests (kept open across calls by the caller)
   * @param target the repository and its index
   * @param modelAvailable whether this process has an embedding model: semantic and hybrid are
   *     offered only then
   * @param maxRefreshFiles the largest change set re-indexed before answering a search
   * @param mapper the SDK's JSON mapper (schemas, structured content)
   */
  McpTools(Backend backend, Target target, boolean modelAvailable, int maxRefreshFiles,
      McpJsonMapper mapper) {
    this.backend = backend;
    this.target = target;
    this.semantic = modelAvailable;
    this.search = new McpSearch(target, modelAvailable, maxRefreshFiles);
    this.maxRefreshFiles = maxRefreshFiles;
    this.mapper = mapper;
  }

  /** The repository and index the tools serve. */
  Target target() {
    return target;
  }

  /** The modes {@code repo_search} accepts, as listed in its schema. */
  List<SearchMode> modes() {
    return search.modes();
  }

  /** The three tools with their handlers, for the SDK's server. */
  List<SyncToolSpecification> specifications() {
    return List.of(
        spec(searchTool(), this::search),
        spec(statusTool(), args -> status()),
        SyncToolSpecification.builder().tool(reindexTool())
            .callHandler((exchange, request) -> reindex(request.arguments(),
                McpProgress.of(exchange, request.meta())))
            .build());
  }

  private static SyncToolSpecification spec(Tool tool, Handler handler) {
    return SyncToolSpecification.builder().tool(tool)
        .callHandler((exchange, request) -> handler.call(request.arguments()))
        .build();
  }

  @FunctionalInterface
  private interface Handler {
    CallToolResult call(@Nullable Map<String, Object> arguments);
  }

  // ---------------------------------------------------------------------------------------------
  // definitions

  /**
   * The most bytes the three definitions may take in {@code tools/list} (an agent host sends them
   * to the model in every session).
   */
  static final int DEFINITIONS_BUDGET = 3_000;

  /**
   * {@code repo_search}: this server's definition (see {@link McpSearch}) as the SDK's tool. The
   * three tools have no output schema: their structured results are the CLI's JSON objects,
   * documented once (docs/agents.md, docs/cli.md), and a schema repeating them would cost an agent
   * more than the hits it asks for.
   */
  Tool searchTool() {
    ToolDefinition d = search.definition();
    return Tool.builder().name(d.name()).title("Search the repository")
        .description(d.description()).inputSchema(mapper, d.inputSchema().toString())
        .annotations(READ_ONLY)
        .build();
  }

  Tool statusTool() {
    return Tool.builder().name(STATUS).title("Index status")
        .description("The index's state (ready; behind: a search catches up first; outdated:"
            + " call reindex; missing, corrupt, incompatible), files, chunks, embeddings, model"
            + " and the files changed since the last run.")
        .inputSchema(mapper, "{\"type\": \"object\", \"additionalProperties\": false}")
        .annotations(READ_ONLY)
        .build();
  }

  Tool reindexTool() {
    return Tool.builder().name(REINDEX).title("Update the index")
        .description("Bring the index up to date: changed files only, or everything with full"
            + " (which also repairs a corrupt or incompatible index). Searches keep answering"
            + " meanwhile; one run at a time; progress notifications for a progressToken.")
        .inputSchema(mapper, "{\"type\": \"object\", \"properties\": {\"full\":"
            + " {\"type\": \"boolean\", \"default\": false}}, \"additionalProperties\": false}")
        .annotations(new ToolAnnotations(null, false, false, true, false, null))
        .build();
  }

  /** Reads nothing but the index and the working tree; answers from them alone. */
  private static final ToolAnnotations READ_ONLY =
      new ToolAnnotations(null, true, null, null, false, null);

  // ---------------------------------------------------------------------------------------------
  // handlers

  /** {@code repo_search}: validates, searches like {@code search --json}, renders. */
  CallToolResult search(@Nullable Map<String, Object> arguments) {
    long start = System.nanoTime();
    McpSearch.Call call;
    try {
      call = search.parse(arguments);
    } catch (CliFailure e) {
      return error(e.getMessage());
    }
    SearchAnswer result;
    try {
      result = backend.search(call.request());
    } catch (CliFailure e) {
      return failure(e);
    } catch (Exception | LinkageError e) {
      return unexpected(SEARCH, e);
    }
    long searched = System.nanoTime();
    String structured = JsonObjects.json(g -> McpSearchAnswer.structured(g, result, call.outputMode()));
    CallToolResult answer = CallToolResult.builder()
        .addTextContent(McpSearchAnswer.text(result, call.outputMode()))
        .structuredContent(object(structured)).isError(false).build();
    if (LOG.isDebugEnabled()) {
      LOG.debug("repo_search handler: {} ms (backend {} ms, rendering {} ms)",
          (System.nanoTime() - start) / 1_000_000, (searched - start) / 1_000_000,
          (System.nanoTime() - searched) / 1_000_000);
    }
    return answer;
  }

  private static void unknown(Map<String, Object> args, Set<String> known) throws CliFailure {
    for (String key : args.keySet()) {
      if (!known.contains(key)) {
        throw CliFailure.usage("unknown argument '" + key + "': expected "
            + known.stream().sorted().collect(Collectors.joining(", ")));
      }
    }
  }

  private static boolean bool(Map<String, Object> args, String name) throws CliFailure {
    Object v = args.get(name);
    if (v == null) {
      return false;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    throw CliFailure.usage(name + " must be true or false, not " + SearchRequests.describe(v));
  }

  /** {@code index_status}: the object of {@code status --json}; any state is a result. */
  CallToolResult status() {
    StatusReport report;
    try {
      report = backend.status(new StatusRequest(target, true, maxRefreshFiles, false));
    } catch (Exception | LinkageError e) {
      return unexpected(STATUS, e);
    }
    String json = JsonObjects.json(g -> JsonObjects.status(g, report));
    return CallToolResult.builder().addTextContent(json).structuredContent(object(json))
        .isError(false).build();
  }

  /** {@code reindex} without progress notifications. */
  CallToolResult reindex(@Nullable Map<String, Object> arguments) {
    return reindex(arguments, Progress.NONE);
  }

  /**
   * {@code reindex}: one run at a time; a second call while one runs is an error at once.
   *
   * @param progress where the run reports its phases and counters (MCP progress notifications
   *     when the client asked for them)
   */
  CallToolResult reindex(@Nullable Map<String, Object> arguments, Progress progress) {
    Map<String, Object> args = arguments == null ? Map.of() : arguments;
    boolean full;
    try {
      unknown(args, REINDEX_ARGS);
      full = bool(args, "full");
    } catch (CliFailure e) {
      return error(e.getMessage());
    }
    if (!reindexing.tryLock()) {
      return error("a reindex is already running in this server; searches answer from the last"
          + " commit until it ends");
    }
    try {
      IndexRequest request = new IndexRequest(target, true, full, false, true);
      String json;
      if (target.workspace()) {
        // One object per repository, by name; optional ones left out say why.
        Map<String, String> each = new LinkedHashMap<>();
        WorkspaceBackend.indexEach(backend, request, () -> progress,
            new WorkspaceBackend.IndexSink() {
              @Override
              public void indexed(Target.Member m, IndexSummary summary) {
                each.put(m.name(), JsonObjects.json(g -> JsonObjects.index(g, summary)));
              }

              @Override
              public void skipped(Target.Member m, String note) {
                each.put(m.name(), JsonObjects.json(g -> {
                  g.writeStartObject();
                  g.writeStringField("skipped", note);
                  g.writeEndObject();
                }));
              }
            });
        json = JsonObjects.json(g -> {
          g.writeStartObject();
          g.writeObjectFieldStart("repos");
          for (Map.Entry<String, String> e : each.entrySet()) {
            g.writeFieldName(e.getKey());
            g.writeRawValue(e.getValue());
          }
          g.writeEndObject();
          g.writeEndObject();
        });
      } else {
        IndexSummary summary = backend.index(request, progress);
        json = JsonObjects.json(g -> JsonObjects.index(g, summary));
      }
      return CallToolResult.builder().addTextContent(json).structuredContent(object(json))
          .isError(false).build();
    } catch (CliFailure e) {
      return failure(e);
    } catch (Exception | LinkageError e) {
      return unexpected(REINDEX, e);
    } finally {
      reindexing.unlock();
    }
  }

  /** Parses one of this class's JSON objects back into a map (tests, structured content). */
  Map<String, Object> object(String json) {
    try {
      return mapper.readValue(json, OBJECT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static CallToolResult error(String message) {
    return CallToolResult.builder().addTextContent(SafeText.escapeField(message)).isError(true).build();
  }

  /** A CLI failure as a tool error; an index problem says which tool fixes it. */
  private static CallToolResult failure(CliFailure e) {
    String message = String.valueOf(e.getMessage());
    if (e.exitCode() == ExitCode.INDEX) {
      message += " (through MCP: call the reindex tool" + (message.contains("--full")
          ? " with full: true)" : ")");
    }
    return error(message);
  }

  private static CallToolResult unexpected(String tool, Throwable e) {
    LOG.warn("{} failed", tool, e);
    String m = e.getMessage();
    return error(tool + " failed: " + e.getClass().getSimpleName()
        + (m == null || m.isBlank() ? "" : ": " + m));
  }
}
