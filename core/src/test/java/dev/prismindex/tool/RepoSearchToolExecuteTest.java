package dev.prismindex.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prismindex.index.IndexErrorCode;
import dev.prismindex.index.IndexException;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.RepositoryException;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RepoSearchToolExecuteTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path CWD = Path.of("workspace");
  private static final String CONTEXT_MESSAGE =
      "context must be a non-negative safe integer at most 20";
  private static final String MAX_MATCHES_MESSAGE =
      "maxMatches must be a positive safe integer at most 10000";

  private final FakeRepositoryOperations operations =
      FakeRepositoryOperations.returning(FakeRepositoryOperations.result());

  private static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private RepoSearchTool tool() {
    return tool(RepoSearchToolOptions.builder());
  }

  private RepoSearchTool tool(RepoSearchToolOptions.Builder options) {
    return RepoSearchTool.create(CWD, options.operations(operations).build());
  }

  private ToolResult run(String arguments) {
    return tool().execute(json(arguments), ToolContext.empty());
  }

  private void assertError(ToolResult result, String message) {
    assertThat(result.isError()).isTrue();
    assertThat(result.text()).isEqualTo(message);
    assertThat(result.metadata().get("errorMessage").textValue()).isEqualTo(message);
  }

  // --- 1. abort ---

  @Test
  void alreadyAbortedSignalFailsBeforeAnythingElse() {
    ToolResult result = tool().execute(json("{}"), ToolContext.of(AbortSignal.aborted()));

    assertError(result, "Operation aborted");
    assertThat(result.metadata().has("errorCode")).isFalse();
    assertThat(operations.requests).isEmpty();
  }

  @Test
  void liveSignalIsPassedToTheSearch() {
    AbortSignal signal = AbortSignal.create();

    tool().execute(json("{\"query\":\"x\"}"), ToolContext.of(signal));

    assertThat(operations.lastRequest().signal()).isSameAs(signal);
  }

  // --- 2. query ---

  @ParameterizedTest
  @ValueSource(strings = {"{}", "{\"query\":\"\"}", "{\"query\":5}", "{\"query\":null}",
      "{\"query\":[\"a\"]}", "{\"query\":true}", "[]", "\"query\"", "null"})
  void queryMustBeANonEmptyString(String arguments) {
    assertError(run(arguments), "query is required and must be a non-empty string.");
    assertThat(operations.requests).isEmpty();
  }

  @Test
  void missingArgumentsAndContextCountAsEmpty() {
    ToolResult result = tool().execute(null, null);

    assertError(result, "query is required and must be a non-empty string.");
  }

  @Test
  void whitespaceQueryIsAccepted() {
    assertThat(run("{\"query\":\" \"}").isError()).isFalse();
    assertThat(operations.lastRequest().query()).isEqualTo(" ");
  }

  @Test
  void queryIsCheckedBeforeMode() {
    assertError(run("{\"mode\":\"regex\"}"), "query is required and must be a non-empty string.");
  }

  // --- 3. path and regex ---

  @Test
  void pathIsKeptOnlyIfAString() {
    run("{\"query\":\"x\",\"path\":\"src\"}");
    assertThat(operations.lastRequest().path()).isEqualTo("src");

    run("{\"query\":\"x\",\"path\":5}");
    assertThat(operations.lastRequest().path()).isNull();

    run("{\"query\":\"x\",\"path\":null}");
    assertThat(operations.lastRequest().path()).isNull();

    run("{\"query\":\"x\",\"path\":\"\"}");
    assertThat(operations.lastRequest().path()).isEmpty();
  }

  @Test
  void regexModeHasItsOwnMessageEvenWhenIndexModesAreEnabled() {
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder().modes(SearchMode.SEMANTIC));

    assertError(tool.execute(json("{\"query\":\"x\",\"mode\":\"regex\"}"), ToolContext.empty()),
        "repo_search no longer supports mode \"regex\"; use literal substring search.");
    assertThat(operations.requests).isEmpty();
  }

  // --- 4. mode ---

  @Test
  void unconfiguredModeListsTheEnabledModes() {
    assertError(run("{\"query\":\"x\",\"mode\":\"semantic\"}"),
        "unsupported search mode: semantic (enabled: literal)");

    RepoSearchTool indexed =
        tool(RepoSearchToolOptions.builder().modes(List.of("indexed_literal")));
    assertError(indexed.execute(json("{\"query\":\"x\",\"mode\":\"semantic\"}"), null),
        "unsupported search mode: semantic (enabled: literal, indexed_literal)");
    assertThat(operations.requests).isEmpty();
  }

  @Test
  void nonStringModesAreRejectedShowingTheirValue() {
    assertError(run("{\"query\":\"x\",\"mode\":\"LITERAL\"}"),
        "unsupported search mode: LITERAL (enabled: literal)");
    assertError(run("{\"query\":\"x\",\"mode\":5}"),
        "unsupported search mode: 5 (enabled: literal)");
    assertError(run("{\"query\":\"x\",\"mode\":5.0}"),
        "unsupported search mode: 5 (enabled: literal)");
    assertError(run("{\"query\":\"x\",\"mode\":null}"),
        "unsupported search mode: null (enabled: literal)");
    assertError(run("{\"query\":\"x\",\"mode\":false}"),
        "unsupported search mode: false (enabled: literal)");
  }

  @Test
  void configuredModeIsPassedOn() {
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder().modes(SearchMode.INDEXED_LITERAL));

    tool.execute(json("{\"query\":\"x\",\"mode\":\"indexed_literal\"}"), null);
    assertThat(operations.lastRequest().mode()).isEqualTo(SearchMode.INDEXED_LITERAL);

    tool.execute(json("{\"query\":\"x\"}"), null);
    assertThat(operations.lastRequest().mode()).isEqualTo(SearchMode.LITERAL);
  }

  @Test
  void modeIsCheckedBeforeOutputMode() {
    assertError(run("{\"query\":\"x\",\"mode\":\"semantic\",\"outputMode\":\"json\"}"),
        "unsupported search mode: semantic (enabled: literal)");
  }

  // --- 5. outputMode ---

  @Test
  void unknownOutputModeIsRejected() {
    assertError(run("{\"query\":\"x\",\"outputMode\":\"json\"}"), "unsupported outputMode: json");
    assertError(run("{\"query\":\"x\",\"outputMode\":\"COUNT\"}"), "unsupported outputMode: COUNT");
    assertError(run("{\"query\":\"x\",\"outputMode\":null}"), "unsupported outputMode: null");
    assertError(run("{\"query\":\"x\",\"outputMode\":true}"), "unsupported outputMode: true");
    assertThat(operations.requests).isEmpty();
  }

  @Test
  void outputModeIsPassedOnAndDefaultsToContent() {
    run("{\"query\":\"x\",\"outputMode\":\"count\"}");
    assertThat(operations.lastRequest().outputMode()).isEqualTo(OutputMode.COUNT);

    run("{\"query\":\"x\"}");
    assertThat(operations.lastRequest().outputMode()).isEqualTo(OutputMode.CONTENT);
  }

  @Test
  void outputModeIsCheckedBeforeLimits() {
    assertError(run("{\"query\":\"x\",\"outputMode\":\"json\",\"context\":-1}"),
        "unsupported outputMode: json");
  }

  // --- 6. context and maxMatches ---

  @ParameterizedTest
  @ValueSource(strings = {"2.5", "-1", "21", "\"5\"", "null", "true", "1e300", "[1]", "{}",
      "123456789012345678901234567890"})
  void invalidContextIsRejected(String value) {
    assertError(run("{\"query\":\"x\",\"context\":" + value + "}"), CONTEXT_MESSAGE);
    assertThat(operations.requests).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "10001", "2.5", "-1", "\"5\"", "null", "1e20", "NaN"})
  void invalidMaxMatchesIsRejected(String value) {
    JsonNode arguments = value.equals("NaN")
        ? MAPPER.createObjectNode().put("query", "x").put("maxMatches", Double.NaN)
        : json("{\"query\":\"x\",\"maxMatches\":" + value + "}");

    assertError(tool().execute(arguments, null), MAX_MATCHES_MESSAGE);
    assertThat(operations.requests).isEmpty();
  }

  @Test
  void contextIsCheckedBeforeMaxMatches() {
    assertError(run("{\"query\":\"x\",\"context\":21,\"maxMatches\":0}"), CONTEXT_MESSAGE);
  }

  @Test
  void boundaryLimitsAreAccepted() {
    run("{\"query\":\"x\",\"context\":0,\"maxMatches\":1}");
    assertThat(operations.lastRequest().context()).isZero();
    assertThat(operations.lastRequest().maxMatches()).isEqualTo(1);

    run("{\"query\":\"x\",\"context\":20,\"maxMatches\":10000}");
    assertThat(operations.lastRequest().context()).isEqualTo(20);
    assertThat(operations.lastRequest().maxMatches()).isEqualTo(10_000);

    run("{\"query\":\"x\",\"context\":5.0,\"maxMatches\":2.0}");
    assertThat(operations.lastRequest().context()).isEqualTo(5);
    assertThat(operations.lastRequest().maxMatches()).isEqualTo(2);
  }

  @Test
  void perCallLimitsAreCheckedAgainstHardCapsNotConfiguredDefaults() {
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder().maxMatches(10).maxContextLines(1));

    tool.execute(json("{\"query\":\"x\",\"context\":7,\"maxMatches\":500}"), null);

    assertThat(operations.lastRequest().context()).isEqualTo(7);
    assertThat(operations.lastRequest().maxMatches()).isEqualTo(500);
  }

  // --- 8. the request ---

  @Test
  void requestCarriesResolvedDefaults() {
    run("{\"query\":\"needle\"}");

    RepositorySearchRequest request = operations.lastRequest();
    assertThat(request.root()).isEqualTo(CWD.toAbsolutePath().normalize());
    assertThat(request.root().isAbsolute()).isTrue();
    assertThat(request.query()).isEqualTo("needle");
    assertThat(request.path()).isNull();
    assertThat(request.mode()).isEqualTo(SearchMode.LITERAL);
    assertThat(request.caseSensitive()).isFalse();
    assertThat(request.includeHidden()).isFalse();
    assertThat(request.exclude()).containsExactly(".git", "node_modules", "dist");
    assertThat(request.context()).isEqualTo(5);
    assertThat(request.maxMatches()).isEqualTo(1_000);
    assertThat(request.deadlineMs()).isEqualTo(30_000L);
    assertThat(request.signal()).isNull();
  }

  @Test
  void requestCarriesConfiguredLimits() {
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder()
        .repository(RepositoryLimits.builder().maxTimeMs(1_234).maxMatches(99).build())
        .maxContextLines(2)
        .exclude(List.of("target")));

    tool.execute(json("{\"query\":\"x\"}"), null);

    RepositorySearchRequest request = operations.lastRequest();
    assertThat(request.exclude()).containsExactly("target");
    assertThat(request.context()).isEqualTo(2);
    assertThat(request.maxMatches()).isEqualTo(99);
    assertThat(request.deadlineMs()).isEqualTo(1_234L);
  }

  @Test
  void flagsAreSetOnlyWhenExactlyTrue() {
    run("{\"query\":\"x\",\"caseSensitive\":true,\"includeHidden\":true}");
    assertThat(operations.lastRequest().caseSensitive()).isTrue();
    assertThat(operations.lastRequest().includeHidden()).isTrue();

    for (String value : List.of("\"true\"", "1", "false", "null", "{}")) {
      run("{\"query\":\"x\",\"caseSensitive\":" + value + ",\"includeHidden\":" + value + "}");
      assertThat(operations.lastRequest().caseSensitive()).as(value).isFalse();
      assertThat(operations.lastRequest().includeHidden()).as(value).isFalse();
    }
  }

  @Test
  void unknownArgumentsAreIgnored() {
    assertThat(run("{\"query\":\"x\",\"regex\":true}").isError()).isFalse();
  }

  // --- 7. policy ---

  @Test
  void allowingPolicySeesTheValidatedCall() {
    List<PolicyRequest> seen = new ArrayList<>();
    AbortSignal signal = AbortSignal.create();
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder().executionPolicy(request -> {
      seen.add(request);
      return PolicyDecision.allow();
    }));

    ToolResult result = tool.execute(
        json("{\"query\":\"x\",\"path\":\"src\",\"caseSensitive\":true,\"context\":2,"
            + "\"maxMatches\":3,\"outputMode\":\"count\"}"),
        new ToolContext(signal, "call-1", "session-1", "run-1"));

    assertThat(result.isError()).isFalse();
    assertThat(operations.requests).hasSize(1);
    PolicyRequest request = seen.get(0);
    assertThat(request.kind()).isEqualTo("repo_search");
    assertThat(request.operation()).isEqualTo("search");
    assertThat(request.paths()).containsExactly("src");
    assertThat(request.risk()).isEqualTo("low");
    assertThat(request.signal()).isSameAs(signal);
    assertThat(request.metadata()).isEqualTo(json("{\"mode\":\"literal\",\"outputMode\":\"count\","
        + "\"caseSensitive\":true,\"includeHidden\":false,\"context\":2,\"maxMatches\":3,"
        + "\"toolCallId\":\"call-1\",\"sessionId\":\"session-1\",\"runId\":\"run-1\"}"));
  }

  @Test
  void policyPathIsTheWorkspaceWhenNoPathIsGiven() {
    List<PolicyRequest> seen = new ArrayList<>();
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder().executionPolicy(request -> {
      seen.add(request);
      return PolicyDecision.allow();
    }));

    tool.execute(json("{\"query\":\"x\"}"), null);
    tool.execute(json("{\"query\":\"x\",\"path\":\"\"}"), null);

    String workspace = CWD.toAbsolutePath().normalize().toString();
    assertThat(seen.get(0).paths()).containsExactly(workspace);
    assertThat(seen.get(1).paths()).containsExactly(workspace);
    assertThat(seen.get(0).metadata()).isEqualTo(json("{\"mode\":\"literal\","
        + "\"outputMode\":\"content\",\"caseSensitive\":false,\"includeHidden\":false}"));
  }

  @Test
  void denialBecomesAnErrorWithThePolicysReason() {
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder()
        .executionPolicy(request -> PolicyDecision.deny("search is disabled in this session")));

    ToolResult result = tool.execute(json("{\"query\":\"x\"}"), null);

    assertError(result, "search is disabled in this session");
    assertThat(operations.requests).isEmpty();
  }

  @Test
  void policyIsNotAskedAboutInvalidArguments() {
    List<PolicyRequest> seen = new ArrayList<>();
    RepoSearchTool tool = tool(RepoSearchToolOptions.builder().executionPolicy(request -> {
      seen.add(request);
      return PolicyDecision.deny("no");
    }));

    assertError(tool.execute(json("{\"query\":\"x\",\"maxMatches\":0}"), null),
        MAX_MATCHES_MESSAGE);
    assertThat(seen).isEmpty();
  }

  @Test
  void policyFailuresDeny() {
    RepoSearchTool throwing = tool(RepoSearchToolOptions.builder().executionPolicy(request -> {
      throw new IllegalStateException("policy store unavailable");
    }));
    assertError(throwing.execute(json("{\"query\":\"x\"}"), null), "policy store unavailable");

    RepoSearchTool silent = tool(RepoSearchToolOptions.builder().executionPolicy(request -> null));
    assertError(silent.execute(json("{\"query\":\"x\"}"), null),
        "execution policy returned no decision");

    RepoSearchTool blank = tool(RepoSearchToolOptions.builder()
        .executionPolicy(request -> new PolicyDecision(false, " ")));
    assertError(blank.execute(json("{\"query\":\"x\"}"), null),
        "repo_search was denied by the execution policy");

    assertThat(operations.requests).isEmpty();
  }

  // --- errors from the search ---

  private ToolResult runFailing(RuntimeException failure) {
    RepoSearchTool tool = RepoSearchTool.create(CWD, RepoSearchToolOptions.builder()
        .operations(FakeRepositoryOperations.throwing(failure)).build());
    return tool.execute(json("{\"query\":\"x\"}"), null);
  }

  @Test
  void indexExceptionSurfacesItsMessageAndCode() {
    ToolResult result = runFailing(new IndexException(IndexErrorCode.ERR_PRISM_INDEX_STALE,
        "index is stale; refresh it before querying", new RuntimeException("backend detail")));

    assertError(result, "index is stale; refresh it before querying");
    assertThat(result.metadata().get("errorCode").textValue()).isEqualTo("ERR_PRISM_INDEX_STALE");
    assertThat(result.metadata().size()).isEqualTo(2);
  }

  @Test
  void repositoryExceptionSurfacesItsMessageAndCode() {
    ToolResult result = runFailing(new RepositoryException("path escapes workspace root: ../x"));

    assertError(result, "path escapes workspace root: ../x");
    assertThat(result.metadata().get("errorCode").textValue()).isEqualTo("ERR_PRISM_REPOSITORY");
  }

  @Test
  void otherExceptionsSurfaceOnlyTheirMessage() {
    ToolResult invalid = runFailing(new IllegalArgumentException(MAX_MATCHES_MESSAGE));
    assertError(invalid, MAX_MATCHES_MESSAGE);
    assertThat(invalid.metadata().has("errorCode")).isFalse();

    assertError(runFailing(new IllegalStateException("boom")), "boom");
    assertError(runFailing(new NullPointerException()), "NullPointerException");
  }

  @Test
  void nullResultIsAnError() {
    RepoSearchTool tool = RepoSearchTool.create(CWD, RepoSearchToolOptions.builder()
        .operations(new FakeRepositoryOperations(request -> null)).build());

    assertError(tool.execute(json("{\"query\":\"x\"}"), null),
        "repository search returned no result");
  }

  @Test
  void errorTextCannotForgeMatchLines() {
    ToolResult result = run("{\"query\":\"x\",\"mode\":\"x\\nsrc/evil.ts:1:1:pwned\"}");

    assertThat(result.isError()).isTrue();
    assertThat(result.text()).doesNotContain("\n")
        .isEqualTo("unsupported search mode: x\\nsrc/evil.ts:1:1:pwned (enabled: literal)");
    assertThat(result.metadata().get("errorMessage").textValue())
        .isEqualTo("unsupported search mode: x\nsrc/evil.ts:1:1:pwned (enabled: literal)");
  }
}
