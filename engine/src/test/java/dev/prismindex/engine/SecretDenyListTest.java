package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.literalSearch;
import static dev.prismindex.engine.TestRepos.git;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The secret deny list: by name and by private-key content, in every mode, overridable. */
class SecretDenyListTest {

  @TempDir Path root;

  private static final String MARKER = "zqxsecretmarker";

  /** Secret files by name, each holding the marker. */
  private static final List<String> BY_NAME = List.of(".git-credentials", ".vault-token",
      "terraform.tfstate", "infra/terraform.tfstate.backup", "deploy/secrets.yaml",
      "config/secret.json", "app.secrets", "aws/credentials", "svc.credentials", ".netrc",
      ".pgpass", "certs/server.pem", "certs/server.key", "store.jks", "store.p12", "ssh/id_ed25519",
      ".env.production", "config/client_secret_123.json");

  private static final String PGP = """
      -----BEGIN PGP PRIVATE KEY BLOCK-----

      lQOYBGXzqxsecretmarkerAQgA0x2Yd1c9uKpZ7v
      =abcd
      -----END PGP PRIVATE KEY BLOCK-----
      """;

  private static final String RSA = """
      -----BEGIN RSA PRIVATE KEY-----
      MIIEowIBAAKCAQEA zqxsecretmarker 0x2Yd1c9uKpZ7v
      -----END RSA PRIVATE KEY-----
      """;

  private void writeFixture() throws Exception {
    for (String path : BY_NAME) {
      write(root, path, "token = " + MARKER + "\n");
    }
    write(root, "private.asc", PGP);
    write(root, "notes/deploy-key.txt", "the key we use:\n" + RSA);
    write(root, "src/KeyParser.java", """
        class KeyParser {
          // a parser mentions the header, it does not hold a key: zqxsecretmarker
          static final String HEADER = "-----BEGIN RSA PRIVATE KEY-----";
        }
        """);
    write(root, "src/SecretStore.java", "class SecretStore { String m = \"" + MARKER + "\"; }\n");
    write(root, "docs/secrets.md", "How we handle secrets: " + MARKER + "\n");
  }

  private static final List<String> KEPT =
      List.of("docs/secrets.md", "src/KeyParser.java", "src/SecretStore.java");

  private HybridIndex open(HybridIndexOptions.Builder b) throws Exception {
    return HybridIndex.open(b.embedder(TestEmbedders.fake()).threads(1).build());
  }

  private static List<String> pathsInEveryMode(HybridIndex index) throws Exception {
    List<String> out = new ArrayList<>();
    for (SearchOpts opts : List.of(SearchOpts.lexical(50), SearchOpts.semantic(50),
        SearchOpts.hybrid(50))) {
      index.search(MARKER, opts).forEach(h -> out.add(h.path()));
    }
    literalSearch(index, MARKER, false, null, 1000, false, AbortSignal.create()).matches()
        .forEach(m -> out.add(m.path()));
    for (SearchMode mode : List.of(SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC)) {
      index.search(new IndexQuery(MARKER, mode, null, 100, false, AbortSignal.create(), 30_000))
          .hits().stream().map(IndexSearchHit::path).forEach(out::add);
    }
    return out;
  }

  @Test
  void deniedFilesAreNeverServedAndAreCountedByReason() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    writeFixture();
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "secrets");
    try (HybridIndex index = open(HybridIndexOptions.builder(root))) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.skipped()).containsEntry(SkipReason.SECRET, BY_NAME.size())
          .containsEntry(SkipReason.PRIVATE_KEY, 2);
      List<String> served = pathsInEveryMode(index);
      assertThat(served).isNotEmpty().allMatch(KEPT::contains);
      assertThat(served).contains("src/KeyParser.java", "src/SecretStore.java");

      Staleness probe = index.staleness();
      assertThat(probe.isStale()).isFalse();
      assertThat(probe.skipped()).containsEntry(SkipReason.SECRET, BY_NAME.size())
          .containsEntry(SkipReason.PRIVATE_KEY, 2);
    }
  }

  @Test
  void theOverridesReAdmitAndDenyByGlob() throws Exception {
    writeFixture();
    try (HybridIndex index = open(HybridIndexOptions.builder(root)
        .allowSecrets(List.of("private.asc", "**/secrets.yaml"))
        .denySecrets(List.of("docs/**")))) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.skipped()).containsEntry(SkipReason.SECRET, BY_NAME.size()) // one allowed, one denied
          .containsEntry(SkipReason.PRIVATE_KEY, 1);
      assertThat(pathsInEveryMode(index)).contains("private.asc", "deploy/secrets.yaml")
          .doesNotContain("docs/secrets.md", ".git-credentials", "notes/deploy-key.txt");
      assertThat(index.staleness().isStale()).isFalse();
    }
  }

  @Test
  void indexSecretsSwitchesTheListOff() throws Exception {
    writeFixture();
    try (HybridIndex index = open(HybridIndexOptions.builder(root).indexSecrets(true))) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.skipped()).doesNotContainKeys(SkipReason.SECRET, SkipReason.PRIVATE_KEY);
      assertThat(pathsInEveryMode(index)).contains("private.asc", ".vault-token");
    }
  }

  @Test
  void aKeyIndexedBeforeTheRuleIsDroppedByTheNextRunAlthoughItsStatIsUnchanged()
      throws Exception {
    write(root, "private.asc", PGP);
    write(root, "ok.txt", MARKER + "\n");
    try (HybridIndex index = open(HybridIndexOptions.builder(root).indexSecrets(true))) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(pathsInEveryMode(index)).contains("private.asc");
    }
    // The same index, now with the deny list on (as after an upgrade): the rules differ from the
    // ones the last run recorded, so every file is re-read once.
    try (HybridIndex index = open(HybridIndexOptions.builder(root))) {
      assertThat(index.staleness().isStale()).isFalse(); // stat data unchanged
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.deleted()).isEqualTo(1);
      assertThat(stats.skipped()).isEqualTo(Map.of(SkipReason.PRIVATE_KEY, 1));
      assertThat(pathsInEveryMode(index)).isNotEmpty().allMatch("ok.txt"::equals);
      IndexRunStats again = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(again.committed()).isFalse(); // the new rules were recorded by the first run
      assertThat(again.skipped()).isEqualTo(Map.of(SkipReason.PRIVATE_KEY, 1));
    }
  }
}
