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
 * The {@code repo_search} definition: description and argument schema. The mode labels are the
 * contract's; the rest is worded for models: what the tool does, what it skips, what it caps.
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
      case LEXICAL:
        return "host-indexed ranked keyword search (BM25 over code-aware tokens)";
      case SEMANTIC:
        return "host semantic search (requires a semantic-capable index backend)";
      case HYBRID:
        return "host hybrid search: keyword and semantic rankings fused (requires a semantic-capable"
            + " index backend)";
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
      return "Search the text files of the workspace. Modes: " + modeDescriptions(modes)
          + ". " + IndexHitText.UNTRUSTED_NOTICE + " Binary files and the excluded base names ("
          + exclude + ") are skipped; matches, bytes scanned and time are capped.";
    }
    return "Find lines containing a literal substring (never a regular expression) in the text"
        + " files of the workspace; case-insensitive unless caseSensitive is true. outputMode"
        + " \"files_with_matches\" returns only the matching paths and \"count\" only the totals."
        + " Binary files, the excluded base names (" + exclude + ") and hidden names (unless"
        + " includeHidden is true) are skipped; symbolic links are never followed; matches, bytes"
        + " scanned and time are capped.";
  }

  static ObjectNode schema(RepositoryLimits limits, List<SearchMode> modes) {
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode schema = json.objectNode();
    schema.put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    property(properties, "query", "string", "The text to find (required; a literal substring, not a regular expression)");
    property(properties, "path", "string",
        "Directory or file to search, relative to the workspace root (default: the whole workspace)");
    ArrayNode modeEnum = property(properties, "mode", "string",
        "How to search: " + modeDescriptions(modes)).putArray("enum");
    modes.forEach(m -> modeEnum.add(m.wireName()));
    property(properties, "caseSensitive", "boolean", "Match letter case exactly (default false)");
    property(properties, "includeHidden", "boolean",
        "Also search names that start with a dot (default false)");
    property(properties, "context", "number", "Lines of context before and after each match (default "
        + limits.maxContextLines() + ", hard " + RepositoryLimits.HARD_MAX_SEARCH_CONTEXT_LINES
        + ")");
    property(properties, "maxMatches", "number", "Most matches returned (default "
        + limits.maxMatches() + ", hard " + RepositoryLimits.HARD_MAX_SEARCH_MATCHES + ")");
    ArrayNode outputEnum = property(properties, "outputMode", "string",
        "What to return: \"content\" (default: matching lines with context),"
            + " \"files_with_matches\" (the unique paths) or \"count\" (totals only)").putArray("enum");
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
