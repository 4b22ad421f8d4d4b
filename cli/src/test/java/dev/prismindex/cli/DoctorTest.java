package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code prism-index doctor}: one line per check (Java, locale, native library, model, watch
 * limits, servers, index), a fix under every problem, and exit code 1 when something is broken.
 */
class DoctorTest {

  @TempDir Path repo;

  private static Map<String, JsonNode> byName(Result r) {
    JsonNode o = r.json().get(0);
    java.util.LinkedHashMap<String, JsonNode> checks = new java.util.LinkedHashMap<>();
    o.get("checks").forEach(c -> checks.put(c.get("name").asText(), c));
    return checks;
  }

  @Test
  void aHealthyRepositoryPassesEveryCheck() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    Result r = cli.run("doctor");
    assertThat(r.exit()).as(r.toString()).isZero();
    List<String> lines = r.outLines();
    assertThat(lines).extracting(l -> l.split("\\s+")[1]).startsWith("java", "locale", "native",
        "model", "watch", "servers", "index");
    assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("ok       model    "
        + Harness.EMBEDDER_ID + " loads and embeds a query ("));
    assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("ok       index    ready at "
        + repo.resolve(".prism-index") + ": 4 files"));
    assertThat(lines).noneMatch(l -> l.startsWith("PROBLEM"));
    Map<String, JsonNode> json = byName(cli.run("doctor", "--json"));
    assertThat(json.keySet()).containsExactly("java", "locale", "native", "model", "watch",
        "servers", "index");
    assertThat(json.get("java").get("status").asText()).isEqualTo("ok");
    assertThat(json.get("java").get("detail").asText()).startsWith(Runtime.version().toString());
    assertThat(json.get("index").get("fix").isNull()).isTrue();
    if (System.getProperty("os.name").toLowerCase().startsWith("linux")) {
      assertThat(json.get("watch").get("detail").asText()).startsWith("inotify: ")
          .contains("watches and").contains("for 6 directories here");
    }
  }

  @Test
  void aMissingIndexIsAProblemWithItsFixAndExitCodeOne() throws Exception {
    Harness cli = new Harness(repo);
    cli.smallRepository();
    Result r = cli.run("doctor");
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.FAILURE);
    List<String> lines = r.outLines();
    int problem = lines.indexOf("PROBLEM  index    missing: no index at "
        + repo.resolve(".prism-index"));
    assertThat(problem).as(r.toString()).isNotNegative();
    assertThat(lines.get(problem + 1)).isEqualTo("                  fix: prism-index index");
    assertThat(lines.get(lines.size() - 1)).startsWith("1 problem, ");
    assertThat(repo.resolve(".prism-index")).as("doctor creates nothing").doesNotExist();
  }

  @Test
  void aCorruptIndexNeedsAFullRebuild() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    try (Stream<Path> files = Files.walk(repo.resolve(".prism-index"))) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".cfs")
          || p.getFileName().toString().endsWith(".tim")).toList()) {
        byte[] bytes = Files.readAllBytes(f);
        for (int i = bytes.length / 2; i < bytes.length / 2 + 64 && i < bytes.length; i++) {
          bytes[i] ^= 0x5a;
        }
        Files.write(f, bytes);
      }
    }
    Map<String, JsonNode> json = byName(cli.run("doctor", "--json"));
    assertThat(json.get("index").get("status").asText()).isEqualTo("problem");
    assertThat(json.get("index").get("detail").asText()).startsWith("corrupt: ");
    assertThat(json.get("index").get("fix").asText()).isEqualTo("prism-index index --full");
  }

  @Test
  void aModelThatFailsIsAProblemAndNoModelAWarning() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    cli.model = Environment.Model.of(new Embedder() {
      @Override
      public String id() {
        return "broken-model";
      }

      @Override
      public int dimension() {
        return 8;
      }

      @Override
      public List<float[]> embed(List<String> texts) {
        throw new EmbeddingException("embedding model unavailable: the weights are missing");
      }
    });
    Result broken = cli.run("doctor");
    assertThat(broken.exit()).isEqualTo(ExitCode.FAILURE);
    assertThat(broken.out()).contains("PROBLEM  model    broken-model fails: embedding model"
        + " unavailable: the weights are missing")
        .contains("fix: semantic and hybrid search need it");
    cli.model = Environment.Model.NONE;
    Map<String, JsonNode> off = byName(cli.run("doctor", "--json"));
    assertThat(off.get("model").get("status").asText()).isEqualTo("ok");
  }

  @Test
  void serversAreListedWithThisRepositorysOwn() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    Path runtime = Files.createDirectories(repo.resolve("../runtime-" + repo.getFileName()));
    cli.variables.put("XDG_RUNTIME_DIR", runtime.toString());
    assertThat(byName(cli.run("doctor", "--json")).get("servers").get("detail").asText())
        .isEqualTo("none running");
    List<AutoCloseable> started = new ArrayList<>();
    try {
      started.add(dev.prismindex.cli.serve.ServerAccess.start(cli, repo));
      String detail = byName(cli.run("doctor", "--json")).get("servers").get("detail").asText();
      assertThat(detail).startsWith("1 resident server running (this repository's: pid "
          + ProcessHandle.current().pid()).endsWith("; prism-index serve --list shows them");
    } finally {
      for (AutoCloseable c : started) {
        c.close();
      }
    }
  }
}
