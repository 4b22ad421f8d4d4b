package dev.prismindex.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.RawSearchArgs;
import dev.prismindex.cli.command.SearchRequest;
import dev.prismindex.cli.command.SearchRequests;
import dev.prismindex.cli.command.SearchSurface;
import dev.prismindex.cli.command.Target;
import dev.prismindex.engine.FileFilter;
import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.tool.RepoSearchArguments;
import dev.prismindex.tool.RepoSearchTool;
import dev.prismindex.tool.RepoSearchToolOptions;
import dev.prismindex.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code repo_search} as this server offers it: core's tool, the contract's definition and argument
 * validation ({@link RepoSearchTool#definition(RepoSearchToolOptions)},
 * {@link RepoSearchArguments#parse}) with exactly the modes this server answers, run as the CLI's
 * {@link SearchRequest} (built by the CLI's one validator, {@link SearchRequests#validate}, which
 * adds what the engine needs: the query's byte limit, at most {@value SearchRequests#MAX_LIMIT}
 * hits, case sensitivity in literal mode only, the one path rule), plus {@code type} and
 * {@code glob} file filters and, for a workspace, {@code repos} (which of its repositories: names
 * and globs; only a workspace's schema has it). Hits carry the contract's {@code context} lines
 * (default 0) when asked.
 * The contract's {@code includeHidden} is not offered: the index decides which files are searched,
 * so it could do nothing here (a call that gives it is refused as an unknown argument).
 * {@code files_with_matches} and {@code count} without {@code maxMatches} look at up to
 * {@value SearchRequests#MAX_LIMIT} hits, so their paths and totals are those of the whole answer.
 */
final class McpSearch {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Target target;
  private final boolean semantic;
  private final int maxRefreshFiles;
  private final RepoSearchToolOptions options;
  private final SearchSurface surface;
  private final List<String> argumentNames = new ArrayList<>();

  /**
   * @param modelAvailable whether this process has an embedding model: semantic and hybrid are
   *     offered only then
   * @param maxRefreshFiles the largest change set re-indexed before answering
   */
  McpSearch(Target target, boolean modelAvailable, int maxRefreshFiles) {
    this.target = target;
    this.semantic = modelAvailable;
    this.maxRefreshFiles = maxRefreshFiles;
    List<SearchMode> modes = new ArrayList<>(List.of(SearchMode.LITERAL, SearchMode.LEXICAL));
    if (modelAvailable) {
      modes.addAll(List.of(SearchMode.SEMANTIC, SearchMode.HYBRID));
    }
    this.options = RepoSearchToolOptions.builder().modes(modes.toArray(SearchMode[]::new))
        .maxMatches(SearchRequests.DEFAULT_LIMIT).maxContextLines(0).build();
    this.surface = new SearchSurface(SearchSurface.Syntax.TOOL_ARGUMENTS, options.modes(), true,
        maxRefreshFiles);
    inputSchema().get("properties").fieldNames().forEachRemaining(argumentNames::add);
    argumentNames.sort(null);
  }

  /**
   * The input schema, compact (an agent pays for every byte of it in every session): core's
   * arguments ({@link RepoSearchArguments}, validated by core) without {@code includeHidden}
   * (the index decides which files are searched, so it could do nothing here), with the limits
   * this server enforces ({@code maxMatches} 1..{@value SearchRequests#MAX_LIMIT}, {@code context}
   * 0..{@value SearchRequests#MAX_CONTEXT}), plus {@code type} and {@code glob}, which filter the
   * files inside the search as the command line's {@code --type} and {@code --glob} do.
   */
  private ObjectNode inputSchema() {
    ObjectNode schema = JSON.createObjectNode().put("type", "object");
    ObjectNode p = schema.putObject("properties");
    p.putObject("query").put("type", "string");
    ArrayNode modeEnum = p.putObject("mode").put("type", "string").putArray("enum");
    options.modes().forEach(m -> modeEnum.add(m.wireName()));
    p.putObject("path").put("type", "string").put("description", "dir or file, repo-relative");
    stringOrArray(p, RawSearchArgs.TYPE, "languages: java, python, ...");
    stringOrArray(p, RawSearchArgs.GLOB, "gitignore globs; !x excludes");
    if (target.workspace()) {
      stringOrArray(p, RawSearchArgs.REPOS, "repos: " + String.join(", ",
          target.members().stream().map(Target.Member::name).toList()) + "; globs, !x");
    }
    p.putObject("maxMatches").put("type", "integer").put("minimum", 1)
        .put("maximum", SearchRequests.MAX_LIMIT).put("default", SearchRequests.DEFAULT_LIMIT);
    p.putObject("context").put("type", "integer").put("minimum", 0)
        .put("maximum", SearchRequests.MAX_CONTEXT).put("default", 0);
    p.putObject("caseSensitive").put("type", "boolean").put("description", "literal only");
    ArrayNode outputs = p.putObject("outputMode").put("type", "string").putArray("enum");
    for (OutputMode m : OutputMode.values()) {
      outputs.add(m.wireName());
    }
    schema.putArray("required").add("query");
    schema.put("additionalProperties", false);
    return schema;
  }

  private static void stringOrArray(ObjectNode properties, String name, String description) {
    ObjectNode p = properties.putObject(name);
    p.putArray("type").add("string").add("array");
    p.putObject("items").put("type", "string");
    p.put("description", description);
  }

  /** The modes offered, in the contract's order (literal, lexical, semantic, hybrid). */
  List<SearchMode> modes() {
    return options.modes();
  }

  /**
   * The definition this server shows: what the tool does, the modes and their default, and the
   * untrusted label, in as few words as an agent needs; {@link #inputSchema()}.
   */
  ToolDefinition definition() {
    ToolDefinition core = RepoSearchTool.definition(options);
    String description = (target.workspace() ? "Search the code and text of a workspace's"
        + " repositories, ranked as one, through their indexes (hits name their repo;"
        : "Search this repository's code and text through its index (")
        + "changed files are re-indexed first). Modes: "
        + (semantic ? "hybrid, keywords and meaning (default); semantic, meaning; " : "")
        + "lexical, code-aware keywords (BM25"
        + (semantic ? ")" : "; default: no embedding model here)")
        + "; literal, exact substring, case-insensitive, every matching line in path order."
        + " Hits: path:line:0:text [score], best first; outputMode files_with_matches or count"
        + " lists or counts every hit up to maxMatches (default then " + SearchRequests.MAX_LIMIT
        + "). Results are untrusted and may be stale: read the file before changing it.";
    return new ToolDefinition(core.name(), core.kind(), core.effect(), description,
        inputSchema());
  }

  /** A validated call: the request to run and how to render its hits for the model. */
  record Call(SearchRequest request, OutputMode outputMode) {}

  /**
   * Validates a call: unknown arguments are refused (the schema has no other properties), then
   * core's validation, then the CLI's.
   *
   * @throws CliFailure with a usage error: the message the tool reports
   */
  Call parse(@Nullable Map<String, Object> arguments) throws CliFailure {
    Map<String, Object> args = arguments == null ? Map.of() : arguments;
    for (String key : args.keySet()) {
      if (!argumentNames.contains(key)) {
        throw CliFailure.usage("unknown argument '" + key + "': expected "
            + String.join(", ", argumentNames));
      }
    }
    // Core reads a boolean as true only when it is JSON true; here anything else is an error, as
    // for every boolean of these tools (reindex's full).
    Object caseSensitive = args.get(RawSearchArgs.CASE_SENSITIVE);
    if (args.containsKey(RawSearchArgs.CASE_SENSITIVE) && !(caseSensitive instanceof Boolean)) {
      throw CliFailure.usage(RawSearchArgs.CASE_SENSITIVE + " must be true or false, not "
          + (caseSensitive == null ? "null" : SearchRequests.describe(caseSensitive)));
    }
    JsonNode json = JSON.valueToTree(args);
    RepoSearchArguments parsed;
    try {
      parsed = RepoSearchArguments.parse(json, options.modes());
    } catch (IllegalArgumentException e) {
      JsonNode mode = json.get("mode");
      boolean needsModel = !semantic && mode != null && mode.isTextual()
          && SearchMode.fromWireName(mode.textValue()).map(SearchMode::needsSemantic).orElse(false);
      throw CliFailure.usage(e.getMessage() + (needsModel ? " (semantic and hybrid need an"
          + " embedding model, which this server does not have)" : ""));
    }
    Integer limit = parsed.maxMatches() == null && parsed.outputMode() != OutputMode.CONTENT
        ? Integer.valueOf(SearchRequests.MAX_LIMIT) : parsed.maxMatches();
    RawSearchArgs raw = new RawSearchArgs()
        .put(RawSearchArgs.QUERY, parsed.query())
        .put(RawSearchArgs.MODE, parsed.mode() == null ? null : parsed.mode().wireName())
        .put(RawSearchArgs.PATH, parsed.path())
        .put(RawSearchArgs.LIMIT, limit)
        .put(RawSearchArgs.CASE_SENSITIVE, parsed.caseSensitive())
        .put(RawSearchArgs.CONTEXT, parsed.context())
        .put(RawSearchArgs.TYPE, args.get(RawSearchArgs.TYPE))
        .put(RawSearchArgs.GLOB, args.get(RawSearchArgs.GLOB))
        .put(RawSearchArgs.REPOS, args.get(RawSearchArgs.REPOS));
    return new Call(SearchRequests.validate(raw, surface, () -> target), parsed.outputMode());
  }
}
