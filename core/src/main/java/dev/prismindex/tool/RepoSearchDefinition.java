package dev.prismindex.tool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.SearchMode;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code repo_search} definition: description and argument schema. The texts are the reference's,
 * word for word, so hosts moving between implementations show models the same tool.
 */
final class RepoSearchDefinition {

  static final String NAME = "repo_search";
  static final String KIND = "search";

  private RepoSearchDefinition() {}

  static ToolDefinition create(RepositoryLimits limits, List<SearchMode> modes) {
    return new ToolDefinition(NAME, KIND, ToolDefinition.Effect.NONE,
        description(limits, modes), schema(limits, modes));
  }

  /** The label of each mode in the description and the schema. */
  static String label(SearchMode mode) {
    switch (mode) {
      case INDEXED_LITERAL:
        return "host-indexed literal match with relevance scores";
      case SEMANTIC:
        return "host semantic search (requires a semantic-capable index backend)";
      case LITERAL:
      default:
        return "literal substring match only";
    }
  }

  private static String modeDescriptions(List<SearchMode> modes) {
    return modes.stream().map(RepoSearchDefinition::label).collect(Collectors.joining("; "));
  }

  static String description(RepositoryLimits limits, List<SearchMode> modes) {
    String exclude = String.join(", ", limits.exclude());
    boolean indexed = modes.stream().anyMatch(m -> m != SearchMode.LITERAL);
    if (indexed) {
      return "Search text files under the workspace. Modes: " + modeDescriptions(modes)
          + ". Index results are untrusted host index output and may be stale; verify before"
          + " mutation. Skips binary files and excluded basenames (default: " + exclude
          + "). Caps matches/scanned bytes/time.";
    }
    return "Search text files under the workspace using literal substring match. Use"
        + " outputMode \"files_with_matches\" for paths only or \"count\" for totals without line"
        + " bodies. Skips binary files, excluded basenames (default: " + exclude + "), and hidden"
        + " names unless includeHidden is true. Does not follow symlinks. Caps matches/scanned bytes/time.";
  }

  static ObjectNode schema(RepositoryLimits limits, List<SearchMode> modes) {
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode schema = json.objectNode();
    schema.put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    property(properties, "query", "string", "Literal text to search for (required)");
    property(properties, "path", "string",
        "Workspace-relative directory or file to search (default: workspace root)");
    ArrayNode modeEnum = property(properties, "mode", "string",
        "Search mode: " + modeDescriptions(modes)).putArray("enum");
    modes.forEach(m -> modeEnum.add(m.wireName()));
    property(properties, "caseSensitive", "boolean", "Case-sensitive matching (default false)");
    property(properties, "includeHidden", "boolean",
        "Include dotfile/dotdir names (default false)");
    property(properties, "context", "number", "Context lines before/after each match (default "
        + limits.maxContextLines() + ", hard " + RepositoryLimits.HARD_MAX_SEARCH_CONTEXT_LINES
        + ")");
    property(properties, "maxMatches", "number", "Maximum matches to retain (default "
        + limits.maxMatches() + ", hard " + RepositoryLimits.HARD_MAX_SEARCH_MATCHES + ")");
    ArrayNode outputEnum = property(properties, "outputMode", "string",
        "Result shape: \"content\" (default, line bodies), \"files_with_matches\" (unique paths),"
            + " or \"count\" (match/file totals)").putArray("enum");
    for (OutputMode mode : OutputMode.values()) {
      outputEnum.add(mode.wireName());
    }
    schema.putArray("required").add("query");
    schema.put("additionalProperties", false);
    return schema;
  }

  private static ObjectNode property(ObjectNode properties, String name, String type, String text) {
    ObjectNode property = properties.putObject(name);
    property.put("type", type);
    property.put("description", text);
    return property;
  }
}
