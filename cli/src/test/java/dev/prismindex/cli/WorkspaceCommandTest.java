package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.WorkspaceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several repositories searched as one from the command line: a workspace file found above the
 * working directory or given with {@code --workspace}, or a repeated {@code --repo}; every
 * repository indexed, checked and caught up on its own; hits naming their repository (NDJSON
 * {@code repo}, human {@code repo/path:line}) with their own repository's freshness; one ranking,
 * one limit; {@code --repos}; what fails (exit 3 naming the repository) and what an optional
 * repository does instead; {@code status} of every repository.
 */
class WorkspaceCommandTest {

  @TempDir Path dir;
  Harness cli;

  @BeforeEach
  void setUp() throws IOException {
    write("api/src/Retry.java", """
        package api;

        /** Retries a call with exponential backoff. */
        public class Retry {
          public int retryWithBackoff(int attempts) {
            return attempts * 2; // needle
          }
        }
        """);
    write("client-java/src/Client.java", """
        package client;

        /** Calls the API and retries on failure. */
        public class Client {
          public void callApi() {
            new Retry().retryWithBackoff(3); // needle
          }
        }
        """);
    write("docs/guide.md", "# Guide\n\nHow to retry a call: see the needle.\n");
    write(WorkspaceFile.NAME, """
        [[repo]]
        path = "api"

        [[repo]]
        path = "client-java"
        name = "client"

        [[repo]]
        path = "docs"
        """);
    cli = new Harness(dir);
  }

  private Path write(String rel, String text) throws IOException {
    Path p = dir.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p;
  }

  private Result index() {
    Result r = cli.run("index");
    assertThat(r.exit()).as(r.toString()).isZero();
    return r;
  }

  @Test
  void indexThenSearchEveryRepositoryOfTheWorkspaceFile() {
    Result indexed = index();
    assertThat(indexed.out()).contains("repository api (" + dir.resolve("api") + ")",
        "repository client (" + dir.resolve("client-java") + ")", "repository docs (");
    for (String repo : List.of("api", "client-java", "docs")) {
      assertThat(dir.resolve(repo).resolve(".prism-index")).isDirectory();
    }

    Result r = cli.run("search", "retryWithBackoff", "--json", "--mode", "lexical");
    assertThat(r.exit()).as(r.toString()).isZero();
    List<JsonNode> hits = r.json();
    assertThat(hits).extracting(h -> h.get("repo").asText() + "/" + h.get("path").asText())
        .startsWith("api/src/Retry.java").contains("client/src/Client.java");
    // repo comes first, before the path it qualifies.
    assertThat(r.outLines().get(0)).startsWith("{\"repo\":\"api\",\"path\":\"src/Retry.java\"");

    Result human = cli.run("search", "retryWithBackoff", "--mode", "lexical");
    assertThat(human.out()).contains("\napi/src/Retry.java:5  retryWithBackoff",
        "\nclient/src/Client.java:6  callApi");

    // Literal: the union, repository by repository (by name), one limit for all.
    Result literal = cli.run("search", "needle", "--json", "--mode", "literal");
    assertThat(literal.json()).extracting(h -> h.get("repo").asText())
        .containsExactly("api", "client", "docs");
    Result two = cli.run("search", "needle", "--mode", "literal", "--limit", "2");
    assertThat(two.outLines()).hasSize(2);
    assertThat(two.err()).contains("2 of at least 3 hits shown");
  }

  /**
   * Regex and literal search stream grep's lines over every repository, each path after its
   * repository's name; NDJSON hits carry {@code repo} and the match spans.
   */
  @Test
  void exactSearchesPrintGrepLinesNamingTheRepository() {
    index();
    Result human = cli.run("search", "-e", "retryWith\\w+");
    assertThat(human.exit()).as(human.toString()).isZero();
    assertThat(human.outLines()).hasSize(2);
    assertThat(human.outLines().get(0)).startsWith("api/src/Retry.java:5:14:");
    assertThat(human.outLines().get(1)).startsWith("client/src/Client.java:6:17:");

    Result json = cli.run("search", "-e", "retryWith\\w+", "--json");
    assertThat(json.exit()).as(json.toString()).isZero();
    assertThat(json.json()).extracting(h -> h.get("repo").asText(),
        h -> h.get("matches").get(0).get("text").asText())
        .containsExactly(org.assertj.core.groups.Tuple.tuple("api", "retryWithBackoff"),
            org.assertj.core.groups.Tuple.tuple("client", "retryWithBackoff"));

    Result picked = cli.run("search", "-F", "needle", "--repos", "client,docs");
    assertThat(picked.outLines()).hasSize(2)
        .allMatch(l -> l.startsWith("client/") || l.startsWith("docs/"));
  }

  @Test
  void eachRepositoryIsCaughtUpOnItsOwnAndItsHitsSaySo() throws IOException {
    index();
    write("client-java/src/Extra.java", "class Extra { void retryTwice() {} }\n");
    Result r = cli.run("search", "retry", "--json", "--mode", "lexical", "--limit", "20");
    assertThat(r.exit()).as(r.toString()).isZero();
    for (JsonNode h : r.json()) {
      int changed = h.get("freshness").get("changedFiles").asInt();
      assertThat(changed).as(h.toString()).isEqualTo(h.get("repo").asText().equals("client")
          ? 1 : 0);
    }
    assertThat(r.json()).anyMatch(h -> h.get("path").asText().equals("src/Extra.java"));
    Result human = cli.run("search", "retry", "--mode", "lexical");
    assertThat(human.err()).doesNotContain("re-indexed");
    write("api/src/More.java", "class More {}\n");
    assertThat(cli.run("search", "retry", "--mode", "lexical").err())
        .contains("note: repository api: re-indexed 1 changed file before searching");
  }

  @Test
  void reposPicksRepositoriesByNameOrGlob() {
    index();
    Result r = cli.run("search", "retry", "--json", "--mode", "lexical", "--repos", "c*,docs");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json()).extracting(h -> h.get("repo").asText()).isNotEmpty()
        .allMatch(n -> n.equals("client") || n.equals("docs"));
    Result unknown = cli.run("search", "retry", "--repos", "web");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains("--repos: no repository 'web' in the workspace (it has api,"
        + " client, docs)");
    Result single = cli.run("--repo", dir.resolve("api").toString(), "search", "retry", "--repos",
        "api");
    assertThat(single.exit()).isEqualTo(2);
    assertThat(single.err()).contains("--repos selects repositories of a workspace");
    Result without = cli.run("search", "retry", "--json", "--mode", "lexical", "--repos",
        "!client");
    assertThat(without.json()).extracting(h -> h.get("repo").asText()).isNotEmpty()
        .doesNotContain("client");
    JsonNode status = cli.run("status", "--json", "--repos", "api").json().get(0);
    assertThat(status.get("repos")).extracting(n -> n.get("name").asText()).containsExactly("api");
  }

  @Test
  void aRepositoryWithoutAnIndexFailsTheSearchNamingItUnlessOptional() throws IOException {
    index();
    write("web/index.html", "<p>retry</p>\n");
    Files.writeString(dir.resolve(WorkspaceFile.NAME), "[[repo]]\npath = \"web\"\n",
        java.nio.file.StandardOpenOption.APPEND);
    Result r = cli.run("search", "retry", "--json");
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("repository web: no index at " + dir.resolve("web/.prism-index"));
    Result status = cli.run("status", "--json");
    assertThat(status.exit()).isEqualTo(3);
    JsonNode s = Harness.JSON.valueToTree(status.json().get(0));
    assertThat(s.get("state").asText()).isEqualTo("missing");
    assertThat(s.get("repos")).extracting(n -> n.get("name").asText() + "=" + n.get("state")
        .asText()).containsExactly("api=ready", "client=ready", "docs=ready", "web=missing");

    Files.writeString(dir.resolve(WorkspaceFile.NAME), "optional = true\n",
        java.nio.file.StandardOpenOption.APPEND);
    Result optional = cli.run("search", "retry", "--json", "--mode", "lexical");
    assertThat(optional.exit()).as(optional.toString()).isZero();
    assertThat(optional.json()).isNotEmpty().noneMatch(h -> h.get("repo").asText().equals("web"));
    assertThat(optional.err()).contains("note: repository web: no index at").contains("(optional:"
        + " left out)");
    assertThat(cli.run("status").exit()).isZero();

    Files.writeString(dir.resolve(WorkspaceFile.NAME), "[[repo]]\npath = \"gone\"\n",
        java.nio.file.StandardOpenOption.APPEND);
    Result gone = cli.run("search", "retry");
    assertThat(gone.exit()).isEqualTo(3);
    assertThat(gone.err()).contains("repository gone: no such directory " + dir.resolve("gone"));
  }

  @Test
  void repeatedRepoOptionsAreAWorkspaceNamedByTheirDirectories() throws IOException {
    write("team-a/lib/A.java", "class A { void quokka() {} }\n");
    write("team-b/lib/B.java", "class B { void quokka() {} }\n");
    Path a = dir.resolve("team-a/lib");
    Path b = dir.resolve("team-b/lib");
    assertThat(cli.run("--repo", a.toString(), "index").exit()).isZero();
    assertThat(cli.run("--repo", b.toString(), "index").exit()).isZero();
    Result r = cli.run("--repo", a.toString(), "--repo", b.toString(), "search", "quokka",
        "--json", "--mode", "lexical");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json()).extracting(h -> h.get("repo").asText())
        .containsExactlyInAnyOrder("team-a-lib", "team-b-lib");

    Result indexDir = cli.run("--repo", a.toString(), "--repo", b.toString(), "--index-dir",
        "x", "search", "quokka");
    assertThat(indexDir.exit()).isEqualTo(2);
    assertThat(indexDir.err()).contains("--index-dir names one index directory");
    cli.variables.put("PRISM_INDEX_DIR", dir.resolve("x").toString());
    Result variable = cli.run("search", "retry");
    assertThat(variable.exit()).isEqualTo(2);
    assertThat(variable.err()).contains("PRISM_INDEX_DIR names one index directory, but the"
        + " workspace " + dir.resolve(WorkspaceFile.NAME));
  }

  @Test
  void theWorkspaceFileIsFoundLikeARepositoryRoot() throws IOException {
    index();
    cli.cwd = dir.resolve("api/src");
    Result inside = cli.run("search", "needle", "--json", "--mode", "literal");
    assertThat(inside.json()).extracting(h -> h.get("repo").asText())
        .containsExactly("api", "client", "docs");
    // A repository root (.git) met first: that repository alone.
    Files.createDirectories(dir.resolve("api/.git"));
    Result alone = cli.run("search", "needle", "--json", "--mode", "literal");
    assertThat(alone.json()).hasSize(1).allMatch(h -> !h.has("repo"));
    // --workspace names the file from anywhere.
    Result named = cli.run("--workspace", dir.resolve(WorkspaceFile.NAME).toString(), "search",
        "needle", "--json", "--mode", "literal");
    assertThat(named.json()).hasSize(3);
  }

  @Test
  void aBadWorkspaceFileIsAUsageErrorNamingItsLine() throws IOException {
    Files.writeString(dir.resolve(WorkspaceFile.NAME), "[[repo]]\npath = \"api\"\n\n[[repo]]\n"
        + "path = \"docs\"\nbranch = \"main\"\n");
    Result r = cli.run("search", "x");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains(dir.resolve(WorkspaceFile.NAME) + ":4: unknown key"
        + " 'repo.branch'");
    Files.writeString(dir.resolve(WorkspaceFile.NAME), "[[repo]]\npath = \"api\"\nname = \"x\"\n"
        + "[[repo]]\npath = \"docs\"\nname = \"x\"\n");
    assertThat(cli.run("search", "x").err()).contains(":4: the name 'x' is given to two");
    Files.writeString(dir.resolve(WorkspaceFile.NAME), "[[repo]]\npath = \"api\"\nname = \"../x\""
        + "\n");
    assertThat(cli.run("search", "x").err()).contains(":1: invalid repository name '../x'");
    Files.writeString(dir.resolve(WorkspaceFile.NAME), "# nothing\n");
    assertThat(cli.run("search", "x").err()).contains("lists no repository");
  }

  @Test
  void statusReportsEveryRepository() {
    index();
    Result r = cli.run("status");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("workspace " + dir + ", 3 repositories: ready")
        .contains("repository api\nstate     ready\nrepo      " + dir.resolve("api"),
            "repository client\nstate     ready", "repository docs\n");
    JsonNode s = cli.run("status", "--json").json().get(0);
    assertThat(s.get("repos")).hasSize(3);
    assertThat(s.get("files").asLong()).isEqualTo(3);
    assertThat(s.get("repos").get(1).get("name").asText()).isEqualTo("client");
  }
}
