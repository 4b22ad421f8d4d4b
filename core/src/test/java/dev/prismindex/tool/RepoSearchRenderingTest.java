package dev.prismindex.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.index.IndexAttestation;
import dev.prismindex.index.IndexState;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.repository.TruncationReason;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class RepoSearchRenderingTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final List<String> NO_LINES = List.of();

  private static RepositorySearchMatch literal(String path, int line, int column, String text) {
    return new RepositorySearchMatch(path, line, line, column, text, NO_LINES, NO_LINES, null);
  }

  private static RepositorySearchMatch scored(String path, int line, int column, String text,
      double score) {
    return new RepositorySearchMatch(path, line, line, column, text, NO_LINES, NO_LINES, score);
  }

  private static RepositorySearchResult result(@Nullable TruncationReason truncatedBy,
      RepositorySearchMatch... matches) {
    return new RepositorySearchResult(List.of(matches), truncatedBy, 120, 3, 7, 1, 2, null);
  }

  private static ToolResult render(RepositorySearchResult result, String outputMode) {
    RepoSearchTool tool = RepoSearchTool.create(Path.of("workspace"), RepoSearchToolOptions
        .builder().operations(FakeRepositoryOperations.returning(result)).build());
    ObjectNode arguments = MAPPER.createObjectNode().put("query", "x");
    if (outputMode != null) {
      arguments.put("outputMode", outputMode);
    }
    ToolResult rendered = tool.execute(arguments, null);
    assertThat(rendered.isError()).as(rendered.text()).isFalse();
    return rendered;
  }

  private static String content(RepositorySearchMatch... matches) {
    return render(result(null, matches), "content").text();
  }

  // --- content ---

  @Test
  void contentRendersContextAroundEachMatch() {
    RepositorySearchMatch first = new RepositorySearchMatch("src/a.ts", 3, 3, 5, "let needle = 1;",
        List.of("// one", "// two"), List.of("// four"), null);
    RepositorySearchMatch second = literal("src/b.ts", 10, 1, "needle()");

    assertThat(content(first, second)).isEqualTo(String.join("\n",
        "src/a.ts-// one",
        "src/a.ts-// two",
        "src/a.ts:3:5:let needle = 1;",
        "src/a.ts+// four",
        "src/b.ts:10:1:needle()"));
  }

  @Test
  void contentIsTheDefaultOutputMode() {
    assertThat(render(result(null, literal("a", 1, 1, "x")), null).text()).isEqualTo("a:1:1:x");
  }

  @Test
  void indexMatchesRenderTheirLocationAndScore() {
    assertThat(content(
        scored("src/a.ts", 12, 3, "function needle()", 0.75),
        scored("src/b.ts", 0, 0, "unknown location", 1.0)))
        .isEqualTo("src/a.ts:12:3:function needle() [score 0.750]\n"
            + "src/b.ts:0:0:unknown location [score 1.000]");
  }

  @Test
  void scoresRoundTheExactBinaryValueHalfUp() {
    assertThat(SafeText.score(0.75)).isEqualTo("0.750");
    assertThat(SafeText.score(1.0005)).isEqualTo("1.000");
    assertThat(SafeText.score(0.0005)).isEqualTo("0.001");
    assertThat(SafeText.score(0.0)).isEqualTo("0.000");
    assertThat(SafeText.score(-0.0)).isEqualTo("0.000");
    assertThat(SafeText.score(1.0)).isEqualTo("1.000");
    assertThat(SafeText.score(0.1235)).isEqualTo("0.123");
    assertThat(SafeText.score(0.9999)).isEqualTo("1.000");
    assertThat(SafeText.score(Double.NaN)).isEqualTo("NaN");
    assertThat(SafeText.score(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
    assertThat(content(scored("a", 1, 1, "x", 1.0005))).isEqualTo("a:1:1:x [score 1.000]");
    assertThat(content(scored("a", 1, 1, "x", 0.0005))).isEqualTo("a:1:1:x [score 0.001]");
  }

  @Test
  void longTextIsCutAt500Units() {
    String exact = "a".repeat(500);
    String over = "b".repeat(501);

    assertThat(content(literal("f", 1, 1, exact))).isEqualTo("f:1:1:" + exact);
    assertThat(content(literal("f", 1, 1, over)))
        .isEqualTo("f:1:1:" + "b".repeat(500) + "... [truncated]");
    RepositorySearchMatch withContext = new RepositorySearchMatch("f", 2, 2, 1, "x",
        List.of("c".repeat(600)), List.of("d".repeat(501)), null);
    assertThat(content(withContext)).isEqualTo("f-" + "c".repeat(500) + "... [truncated]\n"
        + "f:2:1:x\nf+" + "d".repeat(500) + "... [truncated]");
  }

  @Test
  void theCutNeverSplitsASurrogatePair() {
    String emoji = "\uD83D\uDE00";
    String straddling = "a".repeat(499) + emoji + "tail";
    String before = "a".repeat(498) + emoji + "tail";

    assertThat(SafeText.line(straddling)).isEqualTo("a".repeat(499) + "... [truncated]");
    assertThat(SafeText.line(before)).isEqualTo("a".repeat(498) + emoji + "... [truncated]");
    assertThat(SafeText.line("a".repeat(498) + emoji)).isEqualTo("a".repeat(498) + emoji);
  }

  @Test
  void theCutCountsTheOriginalTextNotItsEscapes() {
    String controls = "\u0001".repeat(500);

    assertThat(SafeText.line(controls)).isEqualTo("\\u0001".repeat(500));
    assertThat(SafeText.line(controls + "x")).isEqualTo("\\u0001".repeat(500) + "... [truncated]");
  }

  // --- anti-forgery ---

  @Test
  void snippetNewlinesCannotForgeMatchLines() {
    String text = content(
        scored("src/ok.ts", 4, 2, "ok\nsrc/evil.ts:1:1:pwned", 0.5),
        new RepositorySearchMatch("src/ok.ts", 9, 9, 1, "x",
            List.of("before\r\nsrc/evil.ts:2:2:pwned"),
            List.of("after\u2028src/evil.ts:3:3:pwned\u2029more\u0085next"), null));

    assertThat(text.split("\n", -1)).containsExactly(
        "src/ok.ts:4:2:ok\\nsrc/evil.ts:1:1:pwned [score 0.500]",
        "src/ok.ts-before\\r\\nsrc/evil.ts:2:2:pwned",
        "src/ok.ts:9:1:x",
        "src/ok.ts+after\\u2028src/evil.ts:3:3:pwned\\u2029more\\u0085next");
    assertThat(text.split("\n", -1))
        .allSatisfy(line -> assertThat(line).matches("src/ok\\.ts[-:+].*"));
  }

  @Test
  void everyControlAndSeparatorIsEscaped() {
    StringBuilder raw = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      raw.append(c);
    }
    raw.append('\u007F').append('\u0085').append('\u009F')
        .append('\u2028').append('\u2029').append('\u202E').append('\u2066').append('\u200F');

    String escaped = SafeText.escape(raw.toString());

    assertThat(escaped).startsWith("\\u0000\\u0001").contains("\t", "\\n", "\\r",
        "\\u000B", "\\u000C", "\\u001B", "\\u001C", "\\u001E", "\\u007F", "\\u0085", "\\u009F",
        "\\u2028", "\\u2029", "\\u202E", "\\u2066", "\\u200F");
    assertThat(escaped.chars().filter(c -> c != '\t').allMatch(c -> c >= 0x20 && c < 0x7F))
        .isTrue();
    assertThat(SafeText.escape("plain\ttext \\n é 日本 \uD83D\uDE00"))
        .isEqualTo("plain\ttext \\n é 日本 \uD83D\uDE00");
  }

  @Test
  void pathsAreEscapedToo() {
    RepositorySearchMatch evil = new RepositorySearchMatch("a\nsrc/evil.ts:1:1:x", 1, 1, 1, "hit",
        List.of("ctx"), NO_LINES, null);

    String text = content(evil);

    assertThat(text.split("\n", -1)).containsExactly(
        "a\\nsrc/evil.ts:1:1:x-ctx",
        "a\\nsrc/evil.ts:1:1:x:1:1:hit");
    assertThat(render(result(null, evil), "files_with_matches").text())
        .isEqualTo("a\\nsrc/evil.ts:1:1:x");
  }

  @Test
  void randomSnippetsNeverAddLines() {
    java.util.Random random = new java.util.Random(20_261_129L);
    String alphabet = "ab:1\n\r\u000B\u000C\u001C\u0085\u2028\u2029\u202E\t\\";
    for (int round = 0; round < 200; round++) {
      StringBuilder snippet = new StringBuilder();
      for (int i = random.nextInt(40); i > 0; i--) {
        snippet.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String text = content(scored("p", 1, 1, snippet.toString(), 0.5));
      assertThat(text).as("seed round %d: %s", round, snippet)
          .doesNotContain("\n", "\r", "\u000B", "\u000C", "\u001C", "\u0085", "\u2028", "\u2029");
    }
  }

  // --- files_with_matches and count ---

  @Test
  void filesWithMatchesListsUniquePathsInCodeUnitOrder() {
    RepositorySearchResult result = result(null,
        literal("src/b.ts", 1, 1, "x"), literal("src/B.ts", 1, 1, "x"),
        literal("src/b.ts", 2, 1, "x"), literal("src/a.ts", 1, 1, "x"),
        literal("src/\uFF41.ts", 1, 1, "x"), literal("src/\uD83D\uDE00.ts", 1, 1, "x"));

    assertThat(render(result, "files_with_matches").text()).isEqualTo(String.join("\n",
        "src/B.ts", "src/a.ts", "src/b.ts", "src/\uD83D\uDE00.ts", "src/\uFF41.ts"));
  }

  @Test
  void countUsesSingularOnlyForOneFile() {
    assertThat(render(result(null, literal("a", 1, 1, "x")), "count").text())
        .isEqualTo("1 matches in 1 file");
    assertThat(render(result(null, literal("a", 1, 1, "x"), literal("a", 2, 1, "x")), "count")
        .text()).isEqualTo("2 matches in 1 file");
    assertThat(render(result(null, literal("a", 1, 1, "x"), literal("b", 1, 1, "x")), "count")
        .text()).isEqualTo("2 matches in 2 files");
  }

  // --- empty and truncated ---

  @Test
  void emptyResults() {
    assertThat(render(result(null), "content").text()).isEqualTo("(no matches)");
    assertThat(render(result(null), "files_with_matches").text()).isEqualTo("(no matches)");
    assertThat(render(result(null), "count").text()).isEqualTo("0 matches in 0 files");
  }

  @Test
  void truncatedBeforeAnyMatches() {
    for (String mode : List.of("content", "files_with_matches", "count")) {
      assertThat(render(result(TruncationReason.TIME), mode).text())
          .isEqualTo("[truncated by time before any matches]");
    }
  }

  @Test
  void truncatedAfterMatchesAddsAFooter() {
    RepositorySearchResult result = result(TruncationReason.MATCHES,
        literal("a", 1, 1, "x"), literal("b", 2, 3, "y"));

    assertThat(render(result, "content").text())
        .isEqualTo("a:1:1:x\nb:2:3:y\n[truncated by matches]");
    assertThat(render(result, "files_with_matches").text())
        .isEqualTo("a\nb\n[truncated by matches]");
    assertThat(render(result, "count").text())
        .isEqualTo("2 matches in 2 files\n[truncated by matches]");
    assertThat(render(result(TruncationReason.INDEX, scored("a", 1, 1, "x", 0.5)), "content")
        .text()).isEqualTo("a:1:1:x [score 0.500]\n[truncated by index]");
  }

  // --- metadata ---

  @Test
  void contentMetadataCarriesCountersAndRawMatches() throws Exception {
    RepositorySearchMatch match = new RepositorySearchMatch("src/a.ts", 3, 4, 5, "raw\ntext",
        List.of("b"), List.of("c"), null);

    ObjectNode metadata = render(result(null, match), "content").metadata();

    assertThat(MAPPER.writeValueAsString(metadata)).isEqualTo(
        "{\"outputMode\":\"content\",\"truncated\":false,\"truncatedBy\":null,\"matchCount\":1,"
        + "\"scannedBytes\":120,\"scannedFiles\":3,\"scannedEntries\":7,"
        + "\"filesSkippedBinary\":1,\"filesSkippedOversize\":2,\"filesSkippedUnreadable\":0,"
        + "\"matches\":[{\"path\":\"src/a.ts\",\"line\":3,\"endLine\":4,\"column\":5,"
        + "\"text\":\"raw\\ntext\",\"before\":[\"b\"],\"after\":[\"c\"]}]}");
    assertThat(metadata.has("fileCount")).isFalse();
    assertThat(metadata.has("untrusted_index")).isFalse();
    assertThat(metadata.has("indexMode")).isFalse();
  }

  @Test
  void otherModesCarryFileCountInsteadOfMatches() {
    RepositorySearchResult result = result(TruncationReason.SCAN,
        literal("a", 1, 1, "x"), literal("a", 2, 1, "x"), literal("b", 1, 1, "x"));

    for (String mode : List.of("files_with_matches", "count")) {
      ObjectNode metadata = render(result, mode).metadata();
      assertThat(metadata.get("outputMode").textValue()).isEqualTo(mode);
      assertThat(metadata.get("truncated").booleanValue()).isTrue();
      assertThat(metadata.get("truncatedBy").textValue()).isEqualTo("scan");
      assertThat(metadata.get("matchCount").intValue()).isEqualTo(3);
      assertThat(metadata.get("fileCount").intValue()).isEqualTo(2);
      assertThat(metadata.has("matches")).isFalse();
    }
  }

  @Test
  void indexMetadataAppearsOnlyForIndexResultsAndOnlyWhenDefined() {
    RepositorySearchResult attested = new RepositorySearchResult(
        List.of(scored("a", 1, 1, "x", 0.25)), TruncationReason.INDEX, 0, 0, 0, 0, 0,
        new IndexAttestation(SearchMode.SEMANTIC, IndexState.STALE, "rev-7", 1_700_000_000_000L));

    ObjectNode full = render(attested, "content").metadata();
    assertThat(full.get("untrusted_index").booleanValue()).isTrue();
    assertThat(full.get("indexMode").textValue()).isEqualTo("semantic");
    assertThat(full.get("indexState").textValue()).isEqualTo("stale");
    assertThat(full.get("indexRevision").textValue()).isEqualTo("rev-7");
    assertThat(full.get("indexUpdatedAt").longValue()).isEqualTo(1_700_000_000_000L);
    assertThat(full.get("matches").get(0).get("score").doubleValue()).isEqualTo(0.25);

    RepositorySearchResult bare = new RepositorySearchResult(List.of(), null, 0, 0, 0, 0, 0,
        new IndexAttestation(SearchMode.INDEXED_LITERAL, IndexState.READY, null, null));
    ObjectNode partial = render(bare, "count").metadata();
    assertThat(partial.get("untrusted_index").booleanValue()).isTrue();
    assertThat(partial.get("indexMode").textValue()).isEqualTo("indexed_literal");
    assertThat(partial.get("indexState").textValue()).isEqualTo("ready");
    assertThat(partial.has("indexRevision")).isFalse();
    assertThat(partial.has("indexUpdatedAt")).isFalse();
    assertThat(partial.get("fileCount").intValue()).isZero();
  }

  @Test
  void nonFiniteScoreIsNullInMetadata() {
    ObjectNode metadata = render(result(null, scored("a", 1, 1, "x", Double.NaN)), "content")
        .metadata();

    assertThat(metadata.get("matches").get(0).get("score").isNull()).isTrue();
  }
}
