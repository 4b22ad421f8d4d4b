package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The organisation options ({@code --all-repos}, {@code --repos}, {@code --repo-name}, {@code
 * --repo-list}, {@code --organisation}): clear usage errors (exit 2) before any cluster is asked.
 * (The organisation itself is tested against a real two-node cluster in the opensearch module.)
 */
class OrganisationOptionsTest {

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    cli.smallRepository();
  }

  private void assertUsage(Result r, String message) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains(message);
  }

  private Result cluster(String... args) {
    String[] all = new String[args.length + 4];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--backend";
    all[args.length + 1] = "opensearch";
    all[args.length + 2] = "--opensearch-url";
    all[args.length + 3] = "http://127.0.0.1:9";
    return cli.run(all);
  }

  @Test
  void anOrganisationLivesInACluster() {
    assertUsage(cli.run("search", "--all-repos", "x"), "need --backend opensearch");
    assertUsage(cli.run("status", "--all-repos"), "need --backend opensearch");
    // Without a cluster, --repos narrows a workspace (one grammar): one repository has nothing to
    // narrow.
    assertUsage(cli.run("status", "--repos", "a"), "--repos selects repositories of a workspace");
    assertUsage(cli.run("index", "--repo-name", "a"), "need --backend opensearch");
  }

  @Test
  void conflictingOrBadOptionsAreNamed() {
    assertUsage(cluster("search", "--all-repos", "--repos", "a", "x"),
        "give --all-repos or --repos, not both");
    assertUsage(cluster("search", "--repos", "Bad Name!", "x"), "--repos: invalid repository");
    assertUsage(cluster("search", "--organisation", "x y", "--all-repos", "x"),
        "--organisation: invalid organisation");
    assertUsage(cluster("search", "--organisation", "acme", "x"),
        "--organisation needs --all-repos, --repos, --repo-name or --repo-list");
    assertUsage(cluster("index", "--repo-name", "a", "--repo-list", "f"),
        "give --repo-name or --repo-list, not both");
    assertUsage(cluster("index", "--repo-list", repo.resolve("missing.txt").toString()),
        "--repo-list: cannot read");
    assertUsage(cluster("index", "--shards", "2"), "--shards needs --repo-name or --repo-list");
    assertUsage(cluster("index", "--repo-name", "a", "--shards", "0"),
        "--shards must be at least 1");
  }

  @Test
  void regexAndMatchesPerFileAreForLocalRepositories() {
    assertUsage(cluster("search", "--all-repos", "-e", "ret\\w+"),
        "regex search (-e, --regex, -w) of an organisation's repositories is not supported");
    assertUsage(cluster("search", "--all-repos", "-F", "-m", "1", "x"),
        "-m (matches per file) of an exact search applies to one repository");
  }
}
