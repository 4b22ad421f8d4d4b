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
 * and globs; only a workspace's schema has it). Hits carry the contract's {@code context} lines (default 0) when asked;
 * {@code includeHidden} has no effect: the index decides which files are searched, as for the
 * contract's other index modes.
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
   * Core's input schema with this server's additions: {@code type} and {@code glob} (each a string
   * or an array of strings), which filter the files inside the search as the command line's
   * {@code --type} and {@code --glob} do.
   */
  private ObjectNode inputSchema() {
    ObjectNode schema = RepoSearchTool.definition(options).inputSchema().deepCopy();
    ObjectNode properties = (ObjectNode) schema.get("properties");
    stringOrArray(properties, RawSearchArgs.TYPE, "Only files of these languages ("
        + String.join(", ", FileFilter.knownLanguages().keySet()) + "); a string or an array");
    stringOrArray(properties, RawSearchArgs.GLOB, "Only files matching these gitignore-style"
        + " globs (\"*.java\", \"src/**/test/\"; a leading ! excludes: \"!vendor/\"; the last"
        + " matching glob decides); a string or an array");
    if (target.workspace()) {
      stringOrArray(properties, RawSearchArgs.REPOS, "workspace repos: "
          + String.join(", ", target.members().stream().map(Target.Member::name).toList())
          + " (globs; !x excludes)");
    }
    return schema;
  }

  private static void stringOrArray(ObjectNode properties, String name, String description) {
    ObjectNode p = properties.putObject(name);
    ArrayNode any = p.putArray("anyOf");
    any.addObject().put("type", "string");
    any.addObject().put("type", "array").putObject("items").put("type", "string");
    p.put("description", description);
  }

  /** The modes offered, in the contract's order (literal, lexical, semantic, hybrid). */
  List<SearchMode> modes() {
    return options.modes();
  }

  /** Core's definition with this server's modes, its description followed by this server's notes. */
  ToolDefinition definition() {
    ToolDefinition core = RepoSearchTool.definition(options);
    String notes = " This server answers every mode from the prism-index index of "
        + (target.workspace() ? "each repository of a workspace, ranked as one (hits name their"
            + " repo; the repos argument picks some)" : target.root().getFileName()) + ": literal is an exact substring match, lexical a"
        + " code-aware keyword search (identifiers are split, BM25)"
        + (semantic ? ", semantic by meaning with a local embedding model, hybrid both fused."
            + " Default mode: hybrid when the index has embeddings, else lexical."
            : ". Default mode: lexical (this server has no embedding model).")
        + " Changed files are re-indexed before answering (up to " + maxRefreshFiles + ")."
        + " Hits are ranked, one line each, with a score; maxMatches is at most "
        + SearchRequests.MAX_LIMIT + "; context lines (default 0) are read from the file as it"
        + " is now. type and glob filter the files before the ranking is cut."
        + " .prismignore files keep paths out of the index.";
    return new ToolDefinition(core.name(), core.kind(), core.effect(),
        core.description() + notes, inputSchema());
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
    RawSearchArgs raw = new RawSearchArgs()
        .put(RawSearchArgs.QUERY, parsed.query())
        .put(RawSearchArgs.MODE, parsed.mode() == null ? null : parsed.mode().wireName())
        .put(RawSearchArgs.PATH, parsed.path())
        .put(RawSearchArgs.LIMIT, parsed.maxMatches())
        .put(RawSearchArgs.CASE_SENSITIVE, parsed.caseSensitive())
        .put(RawSearchArgs.CONTEXT, parsed.context())
        .put(RawSearchArgs.TYPE, args.get(RawSearchArgs.TYPE))
        .put(RawSearchArgs.GLOB, args.get(RawSearchArgs.GLOB))
        .put(RawSearchArgs.REPOS, args.get(RawSearchArgs.REPOS));
    return new Call(SearchRequests.validate(raw, surface, () -> target), parsed.outputMode());
  }
}
