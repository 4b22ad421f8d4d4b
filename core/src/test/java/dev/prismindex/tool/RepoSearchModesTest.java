package dev.prismindex.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine's modes ({@code lexical}, {@code hybrid}) on {@code repo_search}, and the validation a
 * host reuses without executing through the tool ({@link RepoSearchArguments}).
 */
class RepoSearchModesTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path CWD = Path.of("workspace");

  private final FakeRepositoryOperations operations =
      FakeRepositoryOperations.returning(FakeRepositoryOperations.result());

  private static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private RepoSearchTool tool(SearchMode... modes) {
    return RepoSearchTool.create(CWD,
        RepoSearchToolOptions.builder().modes(modes).operations(operations).build());
  }

  private static List<String> modeEnum(ToolDefinition definition) {
    List<String> out = new ArrayList<>();
    definition.inputSchema().get("properties").get("mode").get("enum")
        .forEach(n -> out.add(n.textValue()));
    return out;
  }

  @Test
  void everyModeIsAcceptedInCanonicalOrderWhenConfigured() {
    RepoSearchToolOptions options = RepoSearchToolOptions.builder()
        .modes(List.of("hybrid", "lexical", "semantic", "indexed_literal")).build();
    assertThat(options.modes()).containsExactly(SearchMode.LITERAL, SearchMode.INDEXED_LITERAL,
        SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID);
    assertThat(modeEnum(RepoSearchTool.definition(options)))
        .containsExactly("literal", "indexed_literal", "lexical", "semantic", "hybrid");
  }

  @Test
  void theModeEnumIsExactlyTheConfiguredModes() {
    RepoSearchTool tool = tool(SearchMode.LEXICAL, SearchMode.HYBRID);
    assertThat(tool.modes()).containsExactly(SearchMode.LITERAL, SearchMode.LEXICAL,
        SearchMode.HYBRID);
    ToolDefinition definition = tool.definition();
    assertThat(modeEnum(definition)).containsExactly("literal", "lexical", "hybrid");
    assertThat(definition.description()).contains(
        "host-indexed ranked keyword search (BM25 over code-aware tokens)",
        "host hybrid search: keyword and semantic rankings fused");
  }

  @Test
  void lexicalAndHybridAreRoutedToTheOperationsWithTheirMode() {
    RepoSearchTool tool = tool(SearchMode.LEXICAL, SearchMode.HYBRID);
    assertThat(tool.execute(json("{\"query\":\"q\",\"mode\":\"lexical\"}"), null).isError())
        .isFalse();
    assertThat(operations.lastRequest().mode()).isEqualTo(SearchMode.LEXICAL);
    assertThat(tool.execute(json("{\"query\":\"q\",\"mode\":\"hybrid\"}"), null).isError())
        .isFalse();
    assertThat(operations.lastRequest().mode()).isEqualTo(SearchMode.HYBRID);
  }

  @Test
  void aModeThatIsNotConfiguredIsAToolErrorListingTheEnabledModes() {
    RepoSearchTool tool = tool(SearchMode.LEXICAL);
    ToolResult result = tool.execute(json("{\"query\":\"q\",\"mode\":\"hybrid\"}"), null);
    assertThat(result.isError()).isTrue();
    assertThat(result.metadata().get("errorMessage").textValue())
        .isEqualTo("unsupported search mode: hybrid (enabled: literal, lexical)");
    assertThat(operations.requests).isEmpty();

    assertThat(tool(SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC)
        .execute(json("{\"query\":\"q\",\"mode\":\"lexical\"}"), null).text())
        .isEqualTo("unsupported search mode: lexical (enabled: literal, indexed_literal, semantic)");
  }

  @Test
  void theStaticDefinitionEqualsTheToolsDefinition() {
    RepoSearchToolOptions options = RepoSearchToolOptions.builder()
        .modes(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID).maxMatches(50).build();
    ToolDefinition shown = RepoSearchTool.definition(options);
    ToolDefinition tool = RepoSearchTool.create(CWD, options).definition();
    assertThat(shown).isEqualTo(tool);
    assertThat(shown.name()).isEqualTo("repo_search");
  }

  @Test
  void parseGivesAnImmutableRequestWithAbsentOptionalsLeftNull() {
    RepoSearchArguments args = RepoSearchArguments.parse(
        json("{\"query\":\"needle\",\"unknown\":1}"), List.of(SearchMode.LITERAL));
    assertThat(args).isEqualTo(new RepoSearchArguments("needle", null, null, OutputMode.CONTENT,
        false, false, null, null));
    assertThat(args.effectiveMode()).isEqualTo(SearchMode.LITERAL);
  }

  @Test
  void parseReadsEveryArgument() {
    RepoSearchArguments args = tool(SearchMode.HYBRID).parseArguments(json("{\"query\":\"q\","
        + "\"path\":\"src/\",\"mode\":\"hybrid\",\"outputMode\":\"count\",\"caseSensitive\":true,"
        + "\"includeHidden\":true,\"context\":2,\"maxMatches\":7.0}"));
    assertThat(args).isEqualTo(new RepoSearchArguments("q", "src/", SearchMode.HYBRID,
        OutputMode.COUNT, true, true, 2, 7));
  }

  @Test
  void parseFailuresCarryTheToolsMessages() {
    List<SearchMode> modes = List.of(SearchMode.LITERAL, SearchMode.LEXICAL);
    assertThatThrownBy(() -> RepoSearchArguments.parse(null, modes))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("query is required and must be a non-empty string.");
    assertThatThrownBy(() -> RepoSearchArguments.parse(json("{\"query\":\"q\",\"mode\":null}"),
        modes)).hasMessage("unsupported search mode: null (enabled: literal, lexical)");
    assertThatThrownBy(() -> RepoSearchArguments.parse(json("{\"query\":\"q\",\"mode\":\"regex\"}"),
        modes)).hasMessage(
            "repo_search no longer supports mode \"regex\"; use literal substring search.");
    assertThatThrownBy(() -> RepoSearchArguments.parse(
        json("{\"query\":\"q\",\"outputMode\":\"json\"}"), modes))
        .hasMessage("unsupported outputMode: json");
    assertThatThrownBy(() -> RepoSearchArguments.parse(json("{\"query\":\"q\",\"context\":21}"),
        modes)).hasMessage("context must be a non-negative safe integer at most 20");
    assertThatThrownBy(() -> RepoSearchArguments.parse(
        json("{\"query\":\"q\",\"maxMatches\":0.5}"), modes))
        .hasMessage("maxMatches must be a positive safe integer at most 10000");
  }

  @Test
  void toRequestAppliesTheConfiguredLimitsUnlessTheCallSetThem() {
    RepositoryLimits limits = RepositoryLimits.defaults();
    AbortSignal signal = AbortSignal.create();
    RepositorySearchRequest defaulted = new RepoSearchArguments("q", null, null,
        OutputMode.CONTENT, false, false, null, null).toRequest(CWD, limits, signal);
    assertThat(defaulted.mode()).isEqualTo(SearchMode.LITERAL);
    assertThat(defaulted.context()).isEqualTo(limits.maxContextLines());
    assertThat(defaulted.maxMatches()).isEqualTo(limits.maxMatches());
    assertThat(defaulted.deadlineMs()).isEqualTo(limits.maxTimeMs());
    assertThat(defaulted.exclude()).isEqualTo(limits.exclude());
    assertThat(defaulted.signal()).isSameAs(signal);

    RepositorySearchRequest set = new RepoSearchArguments("q", "src", SearchMode.LEXICAL,
        OutputMode.COUNT, true, true, 0, 3).toRequest(CWD, limits, null);
    assertThat(set.path()).isEqualTo("src");
    assertThat(set.mode()).isEqualTo(SearchMode.LEXICAL);
    assertThat(set.context()).isZero();
    assertThat(set.maxMatches()).isEqualTo(3);
    assertThat(set.caseSensitive()).isTrue();
    assertThat(set.includeHidden()).isTrue();
  }
}
