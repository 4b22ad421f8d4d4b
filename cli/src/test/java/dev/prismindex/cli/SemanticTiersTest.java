package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The static code model is the command line's default embedding model, {@code index --model}
 * chooses another, an index keeps its model, and {@code status} (human and JSON, which is also
 * MCP {@code index_status}'s result) says which tier covers how many chunks.
 */
class SemanticTiersTest {

  private static final String CODE = "prism-code-v1-t1";

  @TempDir java.nio.file.Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    cli.smallRepository();
    cli.model = new Environment.Model(true, null); // the class path's models, as the jar has
  }

  @Test
  void theDefaultModelIsTheStaticCodeModelAndStatusNamesItsTier() {
    Result index = cli.run("index", "--json");
    assertThat(index.exit()).as(index.toString()).isZero();
    JsonNode summary = index.json().get(0);
    assertThat(summary.get("model").asText()).isEqualTo(CODE);
    assertThat(summary.get("semanticCoverage").asDouble()).isEqualTo(1.0);

    JsonNode status = cli.run("status", "--json").json().get(0);
    assertThat(status.get("tiers")).hasSize(1);
    JsonNode tier = status.get("tiers").get(0);
    assertThat(tier.get("model").asText()).isEqualTo(CODE);
    assertThat(tier.get("kind").asText()).isEqualTo("static");
    assertThat(tier.get("dimension").asInt()).isEqualTo(256);
    assertThat(tier.get("chunksCovered").asLong()).isEqualTo(status.get("chunks").asLong())
        .isPositive();
    assertThat(tier.get("state").asText()).isEqualTo("ready");

    Result human = cli.run("status");
    assertThat(human.out()).contains("tier      " + CODE + " (static): "
        + status.get("chunks").asLong() + " of " + status.get("chunks").asLong()
        + " chunks embedded, ready");
    // A hybrid search answers with the index's own model.
    Result search = cli.run("search", "--mode", "hybrid", "--json", "parse a duration");
    assertThat(search.exit()).as(search.toString()).isZero();
  }

  @Test
  void aLexicalOnlyIndexReportsItsTierPartialUntilARunEmbeds() {
    assertThat(cli.run("index", "--no-semantic").exit()).isZero();
    JsonNode tier = cli.run("status", "--json").json().get(0).get("tiers").get(0);
    assertThat(tier.get("model").asText()).isEqualTo(CODE);
    assertThat(tier.get("chunksCovered").asLong()).isZero();
    assertThat(tier.get("state").asText()).isEqualTo("partial");
    assertThat(cli.run("index").exit()).isZero();
    assertThat(cli.run("status", "--json").json().get(0).get("tiers").get(0).get("state")
        .asText()).isEqualTo("ready");
  }

  @Test
  void anIndexKeepsItsModelAndAnotherNeedsFull() {
    cli.model = Environment.Model.of(Harness.embedder());
    assertThat(cli.run("index").exit()).isZero();
    cli.model = new Environment.Model(true, null);
    // The index's model is not the default one: status says so per tier, --model without --full
    // is refused and changes nothing.
    JsonNode tier = cli.run("status", "--json").json().get(0).get("tiers").get(0);
    assertThat(tier.get("model").asText()).isEqualTo(Harness.EMBEDDER_ID);
    Result refused = cli.run("index", "--model", "code");
    assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(refused.err()).contains(Harness.EMBEDDER_ID).contains("--full --model " + CODE);
    Result rebuilt = cli.run("index", "--full", "--model", "code", "--json");
    assertThat(rebuilt.exit()).as(rebuilt.toString()).isZero();
    assertThat(rebuilt.json().get(0).get("model").asText()).isEqualTo(CODE);
    // Later runs and searches use the index's own model without the option.
    assertThat(cli.run("index", "--json").json().get(0).get("model").asText()).isEqualTo(CODE);
    assertThat(cli.run("status", "--json").json().get(0).get("tiers").get(0).get("state")
        .asText()).isEqualTo("ready");
  }

  @Test
  void anUnknownModelOrAModelWithoutSemanticSearchIsAUsageError() {
    Result unknown = cli.run("index", "--model", "gpt-17");
    assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(unknown.err()).contains("--model gpt-17: no such model").contains(CODE);
    Result both = cli.run("index", "--model", "code", "--no-semantic");
    assertThat(both.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(both.err()).contains("--model and --no-semantic exclude each other");
    assertThat(repo.resolve(".prism-index").toFile().exists()).isFalse();
  }
}
