package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --backend opensearch}: the choice and the cluster's URL from options or the environment,
 * credentials from the environment only, clear usage errors (exit 2), and an unreachable cluster
 * is exit 3 for every command. (The backend itself is tested against a real two-node cluster in
 * the opensearch module.)
 */
class ClusterBackendTest {

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    cli.smallRepository();
  }

  private static String closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return "http://127.0.0.1:" + s.getLocalPort();
    }
  }

  private void assertUsage(Result r, String message) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains(message);
  }

  @Test
  void theClusterNeedsAUrl() {
    assertUsage(cli.run("search", "--backend", "opensearch", "x"),
        "--backend opensearch needs --opensearch-url URL (or $PRISM_INDEX_OPENSEARCH_URL)");
  }

  @Test
  void anUnknownBackendIsNamed() {
    assertUsage(cli.run("search", "--backend", "elastic", "x"),
        "unknown backend 'elastic': expected local or opensearch");
  }

  @Test
  void aUrlWithoutTheClusterBackendIsAMistake() {
    assertUsage(cli.run("search", "--opensearch-url", "http://localhost:9200", "x"),
        "--opensearch-url needs --backend opensearch");
  }

  @Test
  void credentialsNeverComeFromTheCommandLineAndAreNeverEchoed() {
    Result r = cli.run("search", "--backend", "opensearch", "--opensearch-url",
        "http://indexer:s3cr3t@localhost:9200", "x");
    assertUsage(r, "credentials do not belong in the cluster URL; set"
        + " $PRISM_INDEX_OPENSEARCH_USER and $PRISM_INDEX_OPENSEARCH_PASSWORD");
    assertThat(r.err()).doesNotContain("s3cr3t");
    cli.variables.put("PRISM_INDEX_OPENSEARCH_USER", "indexer");
    assertUsage(cli.run("search", "--backend", "opensearch", "--opensearch-url",
        "http://localhost:9200", "x"), "set both $PRISM_INDEX_OPENSEARCH_USER and");
  }

  @Test
  void aUrlThatIsNoHttpUrlIsAUsageErrorForOneRepositoryAndForAnOrganisation() {
    for (String[] args : new String[][] {{"search", "x"}, {"search", "--all-repos", "x"},
        {"index"}}) {
      String[] all = new String[args.length + 4];
      System.arraycopy(new String[] {"--backend", "opensearch", "--opensearch-url",
          "ftp://localhost:9200"}, 0, all, 0, 4);
      System.arraycopy(args, 0, all, 4, args.length);
      assertUsage(cli.run(all), "--opensearch-url: not an http(s) URL of a cluster:"
          + " ftp://localhost:9200");
    }
  }

  @Test
  void theResidentServerServesTheLocalIndexOnly() {
    assertUsage(cli.run("serve", "--backend", "opensearch", "--opensearch-url",
        "http://localhost:9200"), "serves the local index only");
  }

  @Test
  void anUnreachableClusterIsExitThreeForEveryCommand() throws IOException {
    String url = closedPort();
    cli.variables.put("PRISM_INDEX_BACKEND", "opensearch");
    cli.variables.put("PRISM_INDEX_OPENSEARCH_URL", url);
    for (String[] args : new String[][] {{"search", "x"}, {"index"}}) {
      Result r = cli.run(args);
      assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.INDEX);
      assertThat(r.err()).contains("cannot reach the OpenSearch cluster at [" + url);
    }
    Result status = cli.run("status");
    assertThat(status.out() + status.err()).contains("cannot reach the OpenSearch cluster");
  }
}
