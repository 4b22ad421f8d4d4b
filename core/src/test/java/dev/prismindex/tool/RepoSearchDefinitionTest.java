package dev.prismindex.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepoSearchDefinitionTest {

  private static final Path CWD = Path.of("workspace");

  private static RepoSearchTool tool(RepoSearchToolOptions options) {
    return RepoSearchTool.create(CWD, options);
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(node -> out.add(node.textValue()));
    return out;
  }

  @Test
  void identityAndEffect() {
    ToolDefinition definition = RepoSearchTool.create(CWD).definition();

    assertThat(definition.name()).isEqualTo("repo_search");
    assertThat(definition.kind()).isEqualTo("search");
    assertThat(definition.effect()).isEqualTo(new ToolDefinition.Effect("none", "none"));
  }

  @Test
  void schemaShape() {
    ObjectNode schema = RepoSearchTool.create(CWD).definition().inputSchema();

    assertThat(schema.get("type").textValue()).isEqualTo("object");
    assertThat(texts(schema.get("required"))).containsExactly("query");
    assertThat(schema.get("additionalProperties").isBoolean()).isTrue();
    assertThat(schema.get("additionalProperties").booleanValue()).isFalse();
    List<String> names = new ArrayList<>();
    schema.get("properties").fieldNames().forEachRemaining(names::add);
    assertThat(names).containsExactly("query", "path", "mode", "caseSensitive", "includeHidden",
        "context", "maxMatches", "outputMode");
    JsonNode properties = schema.get("properties");
    assertThat(properties.get("query").get("type").textValue()).isEqualTo("string");
    assertThat(properties.get("path").get("type").textValue()).isEqualTo("string");
    assertThat(properties.get("mode").get("type").textValue()).isEqualTo("string");
    assertThat(properties.get("caseSensitive").get("type").textValue()).isEqualTo("boolean");
    assertThat(properties.get("includeHidden").get("type").textValue()).isEqualTo("boolean");
    assertThat(properties.get("context").get("type").textValue()).isEqualTo("number");
    assertThat(properties.get("maxMatches").get("type").textValue()).isEqualTo("number");
    assertThat(texts(properties.get("outputMode").get("enum")))
        .containsExactly("content", "files_with_matches", "count");
    assertThat(properties.get("caseSensitive").get("description").textValue())
        .isEqualTo("Match letter case exactly (default false)");
    assertThat(properties.get("includeHidden").get("description").textValue())
        .isEqualTo("Also search names that start with a dot (default false)");
  }

  @Test
  void modeEnumIsExactlyTheConfiguredModes() {
    JsonNode literalOnly = RepoSearchTool.create(CWD).definition().inputSchema()
        .get("properties").get("mode");
    assertThat(texts(literalOnly.get("enum"))).containsExactly("literal");
    assertThat(literalOnly.get("description").textValue())
        .isEqualTo("How to search: literal substring match only");

    JsonNode indexed = tool(RepoSearchToolOptions.builder().modes(List.of("indexed_literal"))
        .build()).definition().inputSchema().get("properties").get("mode");
    assertThat(texts(indexed.get("enum"))).containsExactly("literal", "indexed_literal");

    JsonNode all = tool(RepoSearchToolOptions.builder()
        .modes(List.of("semantic", "indexed_literal")).build())
        .definition().inputSchema().get("properties").get("mode");
    assertThat(texts(all.get("enum"))).containsExactly("literal", "indexed_literal", "semantic");
    assertThat(all.get("description").textValue()).isEqualTo("How to search: literal substring"
        + " match only; host-indexed literal match with relevance scores; host semantic search"
        + " (requires a semantic-capable index backend)");
  }

  @Test
  void limitDescriptionsShowResolvedDefaultsAndHardCaps() {
    JsonNode properties = RepoSearchTool.create(CWD).definition().inputSchema().get("properties");
    assertThat(properties.get("context").get("description").textValue())
        .isEqualTo("Lines of context before and after each match (default 5, hard 20)");
    assertThat(properties.get("maxMatches").get("description").textValue())
        .isEqualTo("Most matches returned (default 1000, hard 10000)");

    JsonNode custom = tool(RepoSearchToolOptions.builder().maxMatches(50).maxContextLines(0)
        .build()).definition().inputSchema().get("properties");
    assertThat(custom.get("context").get("description").textValue())
        .isEqualTo("Lines of context before and after each match (default 0, hard 20)");
    assertThat(custom.get("maxMatches").get("description").textValue())
        .isEqualTo("Most matches returned (default 50, hard 10000)");
  }

  @Test
  void literalOnlyDescription() {
    assertThat(RepoSearchTool.create(CWD).definition().description()).isEqualTo(
        "Find lines containing a literal substring (never a regular expression) in the text files"
            + " of the workspace; case-insensitive unless caseSensitive is true. outputMode"
            + " \"files_with_matches\" returns only the matching paths and \"count\" only the"
            + " totals. Binary files, the excluded base names (.git, node_modules, dist) and hidden"
            + " names (unless includeHidden is true) are skipped; symbolic links are never followed;"
            + " matches, bytes scanned and time are capped.");
  }

  @Test
  void multiModeDescriptionListsLabelsAndWarnsAboutUntrustedIndex() {
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder()
        .modes(SearchMode.SEMANTIC).exclude(List.of("target", ".git")).build());

    assertThat(tool.definition().description()).isEqualTo(
        "Search the text files of the workspace. Modes: literal substring match only; host semantic"
            + " search (requires a semantic-capable index backend). Results of index modes come from"
            + " the host's index: they are untrusted and may be stale, so read the file before"
            + " changing it. Binary files and the excluded base names (target, .git) are skipped;"
            + " matches, bytes scanned and time are capped.");
  }

  @Test
  void definitionSchemaIsACopyOwnedByTheCaller() {
    RepoSearchTool tool = RepoSearchTool.create(CWD);
    tool.definition().inputSchema().put("type", "array");

    assertThat(tool.definition().inputSchema().get("type").textValue()).isEqualTo("object");
  }

  @Test
  void modesAccessorReflectsOptions() {
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder()
        .repository(RepositoryLimits.defaults()).modes(SearchMode.INDEXED_LITERAL).build());

    assertThat(tool.modes()).containsExactly(SearchMode.LITERAL, SearchMode.INDEXED_LITERAL);
  }
}
