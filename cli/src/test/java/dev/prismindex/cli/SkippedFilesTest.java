package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files the walk leaves out (secrets, too deep): never served, counted by {@code status}. */
class SkippedFilesTest {

  private static final String MARKER = "zqxskipmarker";

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    cli.write("ok.txt", MARKER + " in a plain file\n");
    for (String name : List.of(".git-credentials", ".vault-token", "terraform.tfstate",
        "secrets.yaml")) {
      cli.write(name, "token " + MARKER + "\n");
    }
    cli.write("private.asc", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + MARKER
        + "\n-----END PGP PRIVATE KEY BLOCK-----\n");
    cli.write("d/".repeat(300) + "deep.txt", MARKER + " too deep\n");
  }

  @Test
  void searchesInEveryModeServeNoSkippedFileAndStatusCountsThem() {
    Result index = cli.run("index", "--json");
    assertThat(index.exit()).as(index.toString()).isZero();
    JsonNode summary = index.json().get(0);
    assertThat(summary.get("skippedBy").get("secret").asInt()).isEqualTo(4);
    assertThat(summary.get("skippedBy").get("private_key").asInt()).isEqualTo(1);
    assertThat(summary.get("skippedBy").get("too_deep").asInt()).isEqualTo(1);

    List<String> paths = new ArrayList<>();
    for (String mode : List.of("lexical", "semantic", "hybrid", "literal")) {
      Result r = cli.run("search", MARKER, "--json", "--mode", mode);
      assertThat(r.exit()).as(r.toString()).isZero();
      for (JsonNode line : r.json()) {
        if (line.has("path")) {
          paths.add(line.get("path").asText());
        }
      }
    }
    assertThat(paths).isNotEmpty().allMatch("ok.txt"::equals);

    Result json = cli.run("status", "--json");
    assertThat(json.exit()).as(json.toString()).isZero();
    JsonNode status = json.json().get(0);
    assertThat(status.get("state").asText()).isEqualTo("ready");
    assertThat(status.get("skipped").asInt()).isEqualTo(6);
    assertThat(status.get("skippedBy").get("secret").asInt()).isEqualTo(4);
    assertThat(status.get("skippedBy").get("private_key").asInt()).isEqualTo(1);
    assertThat(status.get("skippedBy").get("too_deep").asInt()).isEqualTo(1);

    Result human = cli.run("status");
    assertThat(human.out()).contains("state     ready")
        .contains("skipped   6 files (private_key 1, secret 4, too_deep 1)");
  }
}
