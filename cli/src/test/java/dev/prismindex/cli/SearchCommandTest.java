package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Target;
import dev.prismindex.embed.testing.FakeEmbedder;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code search}: NDJSON schema, human output, modes, freshness, and the library equivalence. */
class SearchCommandTest {

  private static final Set<String> SCHEMA_V1 = Set.of("path", "line", "endLine", "snippet",
      "score", "mode", "language", "symbol", "engines");

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
  }

  static void assertSchema(JsonNode hit, String mode) {
    Set<String> names = new TreeSet<>();
    hit.fieldNames().forEachRemaining(names::add);
    assertThat(names).containsAll(SCHEMA_V1);
    String path = hit.get("path").asText();
    assertThat(path).isNotEmpty().doesNotStartWith("/").doesNotContain("\\").doesNotStartWith("./");
    assertThat(hit.get("line").isInt()).isTrue();
    assertThat(hit.get("line").asInt()).isGreaterThanOrEqualTo(1);
    assertThat(hit.get("endLine").asInt()).isGreaterThanOrEqualTo(hit.get("line").asInt());
    assertThat(hit.get("snippet").asText()).isNotBlank();
    assertThat(hit.get("score").asDouble()).isBetween(0.0, 1.0);
    assertThat(hit.get("mode").asText()).isEqualTo(mode);
    assertThat(hit.get("v").asInt()).as("the schema version in every hit").isEqualTo(1);
    assertThat(hit.get("language").asText()).isNotEmpty();
    assertThat(hit.get("symbol").isNull() || hit.get("symbol").isTextual()).isTrue();
    assertThat(hit.get("engines").isObject()).isTrue();
    assertThat(hit.get("engines").size()).isPositive();
    hit.get("engines").fields().forEachRemaining(e -> {
      assertThat(e.getKey()).isIn("lexical", "semantic", "literal");
      assertThat(e.getValue().get("rank").asInt()).isPositive();
      assertThat(e.getValue().get("score").isNumber()).isTrue();
    });
  }

  @Test
  void jsonPrintsOneObjectPerHitAndNothingElse() {
    Result r = cli.run("search", "parse duration", "--json", "--mode", "lexical");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).isEmpty();
    List<JsonNode> hits = r.json();
    assertThat(hits).isNotEmpty();
    assertThat(hits).hasSize(r.outLines().size());
    hits.forEach(h -> assertSchema(h, "lexical"));
    assertThat(hits.get(0).get("path").asText()).isEqualTo("src/main/java/demo/Duration.java");
    assertThat(hits.get(0).get("symbol").asText()).isEqualTo("parseDuration");
    assertThat(hits.get(0).get("line").asInt()).isEqualTo(5);
    assertThat(hits.get(0).get("language").asText()).isEqualTo("java");
  }

  @Test
  void plainRegexLinesAreTheJsonHitsAsTextForCrlfNotUtf8AndLongLines() throws Exception {
    // The uncoloured path:line:col:text lines (written as bytes) say what --json says: the
    // snippet without the CR of a CRLF line, U+FFFD for a byte that is not UTF-8, the window of
    // a long line around its match; tabs shown as spaces.
    Path dir = Files.createDirectories(repo.resolve("lines"));
    Files.writeString(dir.resolve("crlf.txt"), "a\r\n\tcall onNext(x);\r\nz\r\n");
    Files.write(dir.resolve("latin1.txt"),
        new byte[] {'c', 'a', 'f', (byte) 0xE9, ' ', 'o', 'n', 'N', 'e', 'x', 't', '\n'});
    Files.writeString(dir.resolve("long.txt"), "x".repeat(5000) + " onNext\tend " + "y".repeat(5000)
        + "\n");
    Files.writeString(dir.resolve("tabs.txt"), "\ta\tonError\tb\n");

    Result json = cli.run("search", "--json", "-e", "onNext|onError", "--path", "lines/");
    Result plain = cli.run("search", "--color=never", "-e", "onNext|onError", "--path", "lines/");

    assertThat(json.exit()).as(json.toString()).isZero();
    assertThat(plain.exit()).as(plain.toString()).isZero();
    StringBuilder expected = new StringBuilder();
    for (JsonNode h : json.json()) {
      expected.append(h.get("path").asText()).append(':').append(h.get("line").asInt()).append(':')
          .append(h.get("column").asInt()).append(':')
          .append(h.get("snippet").asText().replace('\t', ' ')).append('\n');
    }
    assertThat(json.json()).hasSize(4);
    assertThat(plain.out()).isEqualTo(expected.toString()).contains(
        "lines/crlf.txt:2:7:call onNext(x);\n", "lines/latin1.txt:1:6:caf\uFFFD onNext\n",
        "lines/tabs.txt:1:4:a onError b\n");
    assertThat(plain.outLines()).filteredOn(l -> l.startsWith("lines/long.txt:1:5002:"))
        .singleElement().satisfies(l -> assertThat(l).contains(" onNext end ").hasSizeLessThan(
            "lines/long.txt:1:5002:".length() + 401));
  }

  @Test
  void zeroHitsIsSuccessWithNoOutput() {
    Result r = cli.run("search", "zzzqqqxxx", "--json", "--mode", "lexical");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEmpty();
  }

  @Test
  void limitIsHonoured() {
    Result r = cli.run("search", "duration", "--json", "--limit", "1");
    assertThat(r.json()).hasSize(1);
  }

  @Test
  void pathScopeRestrictsHits() {
    Result r = cli.run("search", "stale parse snake", "--json", "--path", "./tools/");
    assertThat(r.exit()).isZero();
    assertThat(r.json()).isNotEmpty()
        .allSatisfy(h -> assertThat(h.get("path").asText()).startsWith("tools/"));
  }

  @Test
  void defaultModeIsHybridWithAModelAndEmbeddingsAndHumanOutputSaysSo() {
    Result r = cli.run("search", "parseDuration");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines().get(0)).startsWith("hybrid search (lexical + semantic): ");
    List<JsonNode> hits = cli.run("search", "parseDuration", "--json").json();
    assertThat(hits).isNotEmpty().allSatisfy(h -> assertSchema(h, "hybrid"));
    assertThat(hits.get(0).get("engines").has("lexical")).isTrue();
    assertThat(hits).anySatisfy(h -> assertThat(h.get("engines").has("semantic")).isTrue());
  }

  @Test
  void defaultModeIsLexicalWithoutAModelAndSaysWhy() {
    cli.model = Environment.Model.NONE;
    Result r = cli.run("search", "parseDuration");
    assertThat(r.exit()).isZero();
    assertThat(r.outLines().get(0)).startsWith("lexical search (semantic search is off): ");
    assertThat(cli.run("search", "parseDuration", "--json").json())
        .allSatisfy(h -> assertThat(h.get("mode").asText()).isEqualTo("lexical"));
  }

  @Test
  void defaultModeIsLexicalForAnIndexBuiltWithoutEmbeddings() throws Exception {
    Path other = Files.createTempDirectory(repo.getParent(), "plain");
    Harness plain = new Harness(other);
    plain.smallRepository();
    assertThat(plain.run("index", "--no-semantic").exit()).isZero();
    Result r = plain.run("search", "parseDuration");
    assertThat(r.outLines().get(0)).startsWith("lexical search (the index has no embeddings yet;"
        + " run `prism-index index`): ");
    Result status = plain.run("status", "--json");
    assertThat(status.json().get(0).get("chunksEmbedded").asInt()).isZero();
    assertThat(status.json().get(0).get("semanticCoverage").asDouble()).isZero();
  }

  @Test
  void semanticModeAnswersFromTheEmbeddings() {
    Result r = cli.run("search", "formats a duration in milliseconds", "--json", "--mode",
        "semantic");
    assertThat(r.exit()).as(r.toString()).isZero();
    List<JsonNode> hits = r.json();
    assertThat(hits).isNotEmpty().allSatisfy(h -> {
      assertSchema(h, "semantic");
      assertThat(h.get("engines").has("semantic")).isTrue();
      assertThat(h.get("engines").has("lexical")).isFalse();
    });
    assertThat(hits.get(0).get("path").asText()).isEqualTo("src/main/java/demo/Duration.java");
  }

  @Test
  void humanOutputIsPathLineSnippetAndScoreWithoutColourWhenPiped() {
    Result r = cli.run("search", "parseDuration", "--mode", "lexical");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).doesNotContain("\u001b[");
    assertThat(r.out()).contains("src/main/java/demo/Duration.java:5  parseDuration  1.000\n"
        + "    public static long parseDuration(String text) {\n");
  }

  @Test
  void colourOnATerminalAndNoneWithNoColor() {
    cli.stdoutTerminal = true;
    Result coloured = cli.run("search", "parseDuration");
    assertThat(coloured.out()).contains("\u001b[35msrc/main/java/demo/Duration.java\u001b[0m:"
        + "\u001b[32m5\u001b[0m");
    assertThat(coloured.out()).contains("public static long \u001b[1;31mparseDuration\u001b[0m(");
    cli.variables.put("NO_COLOR", "1");
    Result plain = cli.run("search", "parseDuration");
    assertThat(plain.out()).doesNotContain("\u001b[");
  }

  @Test
  void controlCharactersInSnippetsCannotReachTheTerminal() throws Exception {
    cli.write("evil.txt", "beacon \u001b]0;owned\u0007 \u001b[2J end\n");
    Result r = cli.run("search", "beacon");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("beacon").doesNotContain("\u001b").doesNotContain("\u0007");
  }

  @Test
  void literalModeEqualsTheEnginesLiteralSearch() throws Exception {
    Result r = cli.run("search", "Long.parse", "--mode", "literal", "--json", "--limit", "50");
    assertThat(r.exit()).as(r.toString()).isZero();
    List<JsonNode> hits = r.json();
    hits.forEach(h -> assertSchema(h, "literal"));
    List<String> expected = new ArrayList<>();
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(repo).semantic(false)
        .build())) {
      for (Hit h : index.search("Long.parse", SearchOpts.literal(50, false))) {
        // The snippet is the matching line of the file, trimmed.
        expected.add(h.path() + ":" + h.line() + ":"
            + Files.readAllLines(repo.resolve(h.path())).get(h.line() - 1).strip());
      }
    }
    assertThat(hits).extracting(h -> h.get("path").asText() + ":" + h.get("line").asInt() + ":"
        + h.get("snippet").asText()).containsExactlyElementsOf(expected).hasSize(2);
  }

  @Test
  void literalModeSearchesLongLinesAndLockFilesAndSaysWhatItDidNotSearch() throws Exception {
    String line = "<td>" + "report cell ".repeat(12_000) + "UniqueTermDeepInside" + " tail";
    cli.write("reports/report.html", "<html>\n" + line + "\n</html>\n");
    cli.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"
        + "  resolution: {integrity: sha512-LockOnlyTerm}\n");
    Files.write(repo.resolve("blob.bin"), "LockOnlyTerm\0\1".getBytes(StandardCharsets.UTF_8));
    cli.write("big.txt", "LockOnlyTerm\n" + "y".repeat(9 * 1024 * 1024)); // over 8 MiB
    assertThat(cli.run("index").exit()).isZero();

    Result r = cli.run("search", "uniquetermdeepinside", "--mode", "literal", "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json()).singleElement().satisfies(hit -> {
      assertSchema(hit, "literal");
      assertThat(hit.get("path").asText()).isEqualTo("reports/report.html");
      assertThat(hit.get("line").asInt()).isEqualTo(2);
      assertThat(hit.get("snippet").asText()).contains("UniqueTermDeepInside")
          .hasSizeLessThanOrEqualTo(Hit.MAX_SNIPPET_CHARS);
      assertThat(hit.get("notSearched").toString()).isEqualTo("{\"binary\":1,\"oversize\":1}");
    });

    Result lock = cli.run("search", "LockOnlyTerm", "--mode", "literal", "--json",
        "--case-sensitive");
    assertThat(lock.json()).extracting(h -> h.get("path").asText())
        .containsExactly("pnpm-lock.yaml");
    // Lock files stay out of ranked search.
    assertThat(cli.run("search", "LockOnlyTerm", "--mode", "lexical", "--json").json()).isEmpty();

    String note = "note: not searched: 2 files left out of the index (binary 1, oversize 1); see"
        + " docs/cli.md";
    Result human = cli.run("search", "LockOnlyTerm", "--mode", "literal");
    assertThat(human.out()).contains("pnpm-lock.yaml:2");
    assertThat(human.err()).contains(note);
    // No hit: NDJSON prints nothing on stdout, the note still goes to stderr.
    Result none = cli.run("search", "nothing-like-this-anywhere", "--mode", "literal", "--json");
    assertThat(none.exit()).isZero();
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).contains(note);
  }

  @Test
  void literalModeHonoursCase() {
    assertThat(cli.run("search", "LONG.PARSE", "--mode", "literal", "--json").json()).hasSize(2);
    assertThat(cli.run("search", "LONG.PARSE", "--mode", "literal", "--json", "--case-sensitive")
        .json()).isEmpty();
  }

  @Test
  void theLibraryAndTheCliReturnIdenticalRankedResults() throws Exception {
    for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)) {
      for (String query : List.of("duration", "parse duration text", "stale index", "snake_case",
          "Long", "demo", "parseDuration")) {
        for (int limit : new int[] {1, 3, 10}) {
          Result r = cli.run("search", query, "--json", "--mode",
              mode.name().toLowerCase(java.util.Locale.ROOT), "--limit", Integer.toString(limit),
              "--no-refresh");
          assertThat(r.exit()).as(r.toString()).isZero();
          List<Hit> library;
          try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(repo)
              .embedder(Harness.embedder()).build())) {
            library = index.search(query, new SearchOpts(limit, mode, null));
          }
          List<JsonNode> cliHits = r.json();
          assertThat(cliHits).as(mode + " " + query).hasSize(library.size());
          for (int i = 0; i < library.size(); i++) {
            Hit h = library.get(i);
            JsonNode j = cliHits.get(i);
            assertThat(j.get("path").asText()).isEqualTo(h.path());
            assertThat(j.get("line").asInt()).isEqualTo(h.line());
            assertThat(j.get("endLine").asInt()).isEqualTo(h.endLine());
            assertThat(j.get("snippet").asText()).isEqualTo(h.snippet());
            assertThat(j.get("score").asDouble()).isEqualTo(h.score());
            assertThat(j.get("language").asText()).isEqualTo(h.language());
            assertThat(j.get("symbol").isNull() ? null : j.get("symbol").asText())
                .isEqualTo(h.symbol());
            assertRank(j, "lexical", h.lexical());
            assertRank(j, "semantic", h.semantic());
          }
        }
      }
    }
  }

  private static void assertRank(JsonNode hit, String engine,
      dev.prismindex.engine.@org.jspecify.annotations.Nullable EngineScore expected) {
    if (expected == null) {
      assertThat(hit.get("engines").has(engine)).isFalse();
    } else {
      assertThat(hit.get("engines").get(engine).get("rank").asInt()).isEqualTo(expected.rank());
      assertThat(hit.get("engines").get(engine).get("score").asDouble())
          .isEqualTo(expected.score());
    }
  }

  @Test
  void aSmallChangeIsIndexedBeforeAnswering() throws Exception {
    cli.write("src/main/java/demo/Fresh.java", "package demo;\nclass Fresh { int quokka; }\n");
    Result r = cli.run("search", "quokka");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("src/main/java/demo/Fresh.java:2");
    assertThat(r.err()).isEqualTo("note: re-indexed 1 changed file before searching\n");
    Result again = cli.run("search", "quokka", "--json", "--mode", "lexical");
    assertThat(again.err()).isEmpty();
    assertThat(again.json()).hasSize(1);
  }

  @Test
  void aDeletedFileIsDroppedBeforeAnswering() throws Exception {
    Files.delete(repo.resolve("tools/strings.py"));
    Result r = cli.run("search", "snake_case_name", "--json");
    assertThat(r.exit()).isZero();
    assertThat(r.json()).noneSatisfy(
        h -> assertThat(h.get("path").asText()).isEqualTo("tools/strings.py"));
  }

  @Test
  void aLargeChangeIsRefusedWithExit3AndNoRefreshQueriesTheOldIndex() throws Exception {
    cli.write("a/One.java", "class One { int wombat; }\n");
    cli.write("a/Two.java", "class Two { int wombat; }\n");
    cli.write("a/Three.java", "class Three { int wombat; }\n");
    Result r = cli.run("search", "wombat", "--json", "--max-refresh-files", "2");
    assertThat(r.exit()).isEqualTo(ExitCode.INDEX);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("prism-index search: index is stale: 3 files changed since the"
        + " last index run (more than --max-refresh-files 2); run `prism-index index`, or pass"
        + " --no-refresh to search the old index\n");
    Result old = cli.run("search", "wombat", "--json", "--max-refresh-files", "2",
        "--no-refresh", "--mode", "lexical");
    assertThat(old.exit()).isZero();
    assertThat(old.json()).isEmpty();
    assertThat(cli.run("search", "wombat", "--json", "--mode", "lexical").json()).hasSize(3);
  }

  @Test
  void aMissingIndexIsExit3AndNothingIsCreated() throws Exception {
    Path other = Files.createDirectories(repo.resolve("other"));
    Result r = cli.run("--index-dir", other.resolve("idx").toString(), "search", "x");
    assertThat(r.exit()).isEqualTo(ExitCode.INDEX);
    assertThat(r.err()).isEqualTo("prism-index search: no index at " + other.resolve("idx")
        + "; run `prism-index index`\n");
    assertThat(other.resolve("idx")).doesNotExist();
  }

  @Test
  void semanticAndHybridWithoutAModelAreExit4() {
    cli.model = Environment.Model.NONE;
    for (String mode : List.of("semantic", "hybrid")) {
      Result r = cli.run("search", "duration", "--mode", mode, "--json");
      assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.MODEL);
      assertThat(r.out()).isEmpty();
      assertThat(r.err()).startsWith("prism-index search: " + mode + " search: embedding model"
          + " unavailable: ").endsWith("; use --mode lexical\n");
      assertThat(r.err().strip()).doesNotContain("\n");
    }
    assertThat(cli.run("search", "duration", "--mode", "lexical").exit()).isZero();
    assertThat(cli.run("search", "duration", "--mode", "literal").exit()).isZero();
  }

  @Test
  void anIndexBuiltWithAnotherModelIsExit4WithTheRebuildCommand() {
    cli.model = Environment.Model.of(new FakeEmbedder("another-model", FakeEmbedder.DIMENSION));
    Result r = cli.run("search", "duration", "--mode", "hybrid");
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.MODEL);
    assertThat(r.err()).contains("another-model").contains("prism-index index --full");
    Result auto = cli.run("search", "duration");
    assertThat(auto.exit()).isZero();
    assertThat(auto.outLines().get(0)).startsWith("lexical search (the index's embeddings come"
        + " from another model)");
    assertThat(cli.run("index", "--full").exit()).isZero();
    assertThat(cli.run("search", "duration", "--mode", "hybrid").exit()).isZero();
  }

  @Test
  void aFewNewChunksAreEmbeddedBeforeAnsweringAndManyAreReportedAsPartial() throws Exception {
    cli.write("src/main/java/demo/Fresh.java", "package demo;\nclass Fresh { int quokka; }\n");
    Result few = cli.run("search", "quokka", "--json", "--mode", "semantic");
    assertThat(few.exit()).isZero();
    assertThat(few.json()).extracting(h -> h.get("path").asText())
        .contains("src/main/java/demo/Fresh.java");
    assertThat(cli.run("status", "--json").json().get(0).get("semanticCoverage").asDouble())
        .isEqualTo(1.0);

    for (int i = 0; i < 80; i++) {
      cli.write("gen/G" + i + ".java", "package gen;\nclass G" + i + " { int numbat" + i + "; }\n");
    }
    Result many = cli.run("search", "numbat7", "--mode", "hybrid");
    assertThat(many.exit()).as(many.toString()).isZero();
    assertThat(many.err()).contains("re-indexed 80 changed files before searching")
        .contains("semantic coverage is partial (")
        .contains("run `prism-index index` to complete it");
    assertThat(many.out()).contains("gen/G7.java:2");
    Result lexical = cli.run("search", "numbat8", "--mode", "lexical", "--json");
    assertThat(lexical.json()).extracting(h -> h.get("path").asText()).contains("gen/G8.java");
    assertThat(cli.run("index", "--json").json().get(0).get("semanticCoverage").asDouble())
        .isEqualTo(1.0);
  }

  @Test
  void aClosedStdoutEndsQuietlyWithExit0() {
    PrintStream closed = new PrintStream(new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    }, false, StandardCharsets.UTF_8);
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    for (String[] args : List.of(new String[] {"search", "duration", "--json"},
        new String[] {"search", "duration"}, new String[] {"status"},
        new String[] {"index", "--json"})) {
      int exit = Main.run(args, closed, new PrintStream(err, true, StandardCharsets.UTF_8),
          cli.environment());
      assertThat(exit).as(String.join(" ", args)).isZero();
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void indexDirectoryFromTheEnvironmentAndTheFlag() throws Exception {
    Path a = repo.resolve("idx-a");
    Path b = repo.resolve("idx-b");
    cli.variables.put(Environment.INDEX_DIR_VARIABLE, a.toString());
    assertThat(cli.run("index").exit()).isZero();
    assertThat(a.resolve("lucene")).isDirectory();
    assertThat(cli.run("--index-dir", b.toString(), "index").exit()).isZero();
    assertThat(b.resolve("lucene")).isDirectory();
    Iterator<JsonNode> status = cli.run("status", "--json").json().iterator();
    assertThat(status.next().get("indexDir").asText()).isEqualTo(a.toString());
  }

  @Test
  void theRepositoryRootIsFoundFromASubdirectory() throws Exception {
    Files.createDirectories(repo.resolve(".git"));
    Path deep = Files.createDirectories(repo.resolve("src/main/java/demo"));
    assertThat(Target.repositoryRoot(deep)).isEqualTo(repo);
    Path plain = Files.createTempDirectory("no-git");
    try {
      assertThat(Target.repositoryRoot(plain)).isEqualTo(plain);
    } finally {
      Files.delete(plain);
    }
  }

  @Test
  void aQueryOverTheByteLimitIsAUsageErrorOnAnIndexToo() {
    String query = "x".repeat(4_097);
    for (String mode : List.of("literal", "lexical", "semantic", "hybrid")) {
      for (String format : List.of("--json", "--no-refresh")) {
        Result r = cli.run("search", query, "--mode", mode, format);
        assertThat(r.exit()).as(mode + " " + r).isEqualTo(ExitCode.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("prism-index search: the query is 4097 bytes (UTF-8): at"
            + " most 4096 bytes are allowed\n");
      }
    }
    Result atLimit = cli.run("search", "x".repeat(4_096), "--mode", "literal");
    assertThat(atLimit.exit()).as(atLimit.toString()).isZero();
  }
}
