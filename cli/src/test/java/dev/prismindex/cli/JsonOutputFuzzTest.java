package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated command lines with {@code --json} (seeded, so a failure reproduces): whatever the
 * other arguments are (options, their values valid or not, queries that look like options,
 * {@code --}, {@code -}, help and version), stdout holds nothing but JSON objects, one a line.
 * Issue 41's fuzzing found 116 of 11,000 calls printing the version or the usage instead.
 */
class JsonOutputFuzzTest {

  private static final long SEED = 41_4L;
  private static final int RUNS = 400;

  /** Arguments, some with their values; a generated line takes a few of them in any order. */
  private static final String[][] PIECES = {
      {"--mode", "literal"}, {"--mode", "lexical"}, {"--mode", "hybrid"}, {"--mode", "auto"},
      {"--mode", "fuzzy"}, {"--limit", "3"}, {"--limit", "0"}, {"--limit", "-1"}, {"--limit"},
      {"-C", "1"}, {"-C2"}, {"-A", "50"}, {"-B", "1"}, {"-t", "java"}, {"-tpyton"},
      {"-g", "*.java"}, {"-g", "[bad"}, {"--path", "src"}, {"--path", "no/such"}, {"-n"},
      {"-l"}, {"-c"}, {"-m", "1"}, {"-m", "0"}, {"--color=always"}, {"--color", "sometimes"},
      {"--no-refresh"}, {"--case-sensitive"}, {"-h"}, {"--help"}, {"-V"}, {"--version"},
      {"--"}, {"-"}, {"-Verbose"}, {"-hidden files"}, {"-1"}, {"-v"}, {"--bogus"}, {"-Vh"},
      {"needle"}, {"parse duration"}, {"two"}, {"words"}, {"--type-list"}, {"--no-config"},
      {"--repo"}, {"-nm1"}, {"-"}, {"--max-count=2"}};

  @TempDir Path repo;

  @Test
  void noJsonRunPrintsAnythingButJsonOnStdout() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    cli.write("notes/n.txt", "needle one\n-Verbose two\n-1 three\n");
    Random random = new Random(SEED);
    int jsonRuns = 0;
    int withHits = 0;
    for (int run = 0; run < RUNS; run++) {
      List<String> args = new ArrayList<>(List.of("search"));
      int pieces = 1 + random.nextInt(5);
      for (int p = 0; p < pieces; p++) {
        args.addAll(List.of(PIECES[random.nextInt(PIECES.length)]));
      }
      int end = args.indexOf("--") < 0 ? args.size() : args.indexOf("--");
      args.add(1 + random.nextInt(end), "--json"); // an option: before any --
      if (args.contains("--type-list")) {
        continue; // lists types as text by design, --json or not (not a search)
      }
      Result r = cli.runWithStdin(random.nextBoolean() ? "needle\n".getBytes(
          StandardCharsets.UTF_8) : new byte[0], args.toArray(String[]::new));
      jsonRuns++;
      for (String line : r.outLines()) {
        JsonNode node;
        try {
          node = Harness.JSON.readTree(line);
        } catch (Exception e) {
          throw new AssertionError("run " + run + " " + args + " printed non-JSON: " + r, e);
        }
        assertThat(node.isObject()).as("run %d %s: %s", run, args, r).isTrue();
        assertThat(node.has("path")).as("run %d %s: %s", run, args, r).isTrue();
      }
      if (!r.out().isEmpty()) {
        withHits++;
      }
    }
    assertThat(jsonRuns).isGreaterThan(RUNS * 9 / 10);
    assertThat(withHits).as("the generator reaches searches with hits too").isGreaterThan(10);
  }
}
