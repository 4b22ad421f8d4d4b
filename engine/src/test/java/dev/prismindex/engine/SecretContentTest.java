package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41, item 6: secrets are recognised by content too, not by file name alone (a
 * {@code config.ini} holding {@code aws_secret_access_key = ...} was indexed and printed). Thirty
 * kinds of secret in 32 files, each one's name unknown to the deny list, anywhere in the file
 * (past the first 8 KiB too): every one is skipped as {@code secret} (or {@code private_key} for a
 * key file's own header), counted so by the run and by the freshness probe, and found by no mode.
 * Files that only look like them (documentation's example keys, placeholders, a PEM parser, code
 * that reads a password) are indexed.
 *
 * <p>The secrets are made up when the test runs (seeded), so this source holds none that a
 * scanner would flag.
 */
class SecretContentTest {

  @TempDir Path root;

  private final Random random = new Random(41);

  private String chars(String alphabet, int n) {
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  private static final String UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  private static final String ALNUM =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final String BASE64 = ALNUM + "+/";
  private static final String URLSAFE = ALNUM + "-_";
  private static final String HEX = "0123456789abcdef";

  private String pem(String kind) {
    StringBuilder b = new StringBuilder("-----BEGIN " + kind + "-----\n");
    for (int i = 0; i < 6; i++) {
      b.append(chars(BASE64, 64)).append('\n');
    }
    return b.append("-----END ").append(kind).append("-----\n").toString();
  }

  /** Thirty kinds: file name, content (the secret in some context). */
  private Map<String, String> secrets() {
    String join = "\n";
    Map<String, String> s = new LinkedHashMap<>();
    s.put("cloud/config.ini", "[default]\nregion = eu-west-1\naws_access_key_id = AKIA"
        + chars(UPPER_DIGITS, 16) + join + "aws_secret_access_key = " + chars(BASE64, 40) + "\n");
    s.put("cloud/session.sh", "export AWS_ACCESS_KEY_ID=ASIA" + chars(UPPER_DIGITS, 16) + "\n");
    s.put("cloud/Uploader.java", "class Uploader {\n  String id = \"AKIA" + chars(UPPER_DIGITS, 16)
        + "\";\n}\n");
    s.put("cloud/aws.toml", "aws_secret_access_key = \"" + chars(BASE64, 40) + "\"\n");
    s.put("keys/server.txt", pem("RSA PRIVATE KEY"));
    s.put("keys/ec.conf.txt", "# deploy\n" + pem("EC PRIVATE KEY"));
    s.put("keys/ssh.txt", pem("OPENSSH PRIVATE KEY"));
    s.put("keys/pkcs8.txt", "x\n".repeat(5000) + pem("PRIVATE KEY")); // past 8 KiB
    s.put("keys/pgp.asc.txt", pem("PGP PRIVATE KEY BLOCK"));
    s.put("keys/encrypted.txt", pem("ENCRYPTED PRIVATE KEY"));
    s.put("cloud/service-account.json", "{\"type\": \"service_account\", \"private_key\": "
        + "\"-----BEGIN PRIVATE KEY-----\\n" + chars(BASE64, 64) + "\\n" + chars(BASE64, 64)
        + "\\n-----END PRIVATE KEY-----\\n\"}\n");
    s.put("ci/github.yml", "env:\n  GH: ghp_" + chars(ALNUM, 36) + "\n");
    s.put("ci/oauth.py", "TOKEN = 'gho_" + chars(ALNUM, 36) + "'\n");
    s.put("ci/app.go", "var t = \"ghs_" + chars(ALNUM, 36) + "\"\n");
    s.put("ci/user.rb", "token = \"ghu_" + chars(ALNUM, 36) + "\"\n");
    s.put("ci/refresh.txt", "ghr_" + chars(ALNUM, 36) + "\n");
    s.put("ci/fine.md", "Use github_pat_" + chars(ALNUM, 22) + "_" + chars(ALNUM, 59)
        + " for the bot.\n");
    s.put("ci/gitlab-ci.yml", "variables:\n  GL: glpat-" + chars(URLSAFE, 20) + "\n");
    s.put("ci/deploy.sh", "git clone https://x:gldt-" + chars(URLSAFE, 24) + "@gitlab.com/a/b\n");
    s.put("ci/runner.toml", "token = \"glrt-" + chars(URLSAFE, 24) + "\"\n");
    s.put("chat/bot.js", "const slack = 'xoxb-" + chars("0123456789", 12) + "-"
        + chars("0123456789", 13) + "-" + chars(ALNUM, 24) + "';\n");
    s.put("chat/user.json", "{\"slack\": \"xoxp-" + chars("0123456789", 12) + "-"
        + chars(ALNUM, 30) + "\"}\n");
    s.put("chat/hook.txt", "https://hooks.slack.com/services/T" + chars(UPPER_DIGITS, 8) + "/B"
        + chars(UPPER_DIGITS, 8) + "/" + chars(ALNUM, 24) + "\n");
    s.put("registry/publish.cfg", "//registry.npmjs.org/:_authToken=npm_" + chars(ALNUM, 36)
        + "\n");
    s.put("registry/upload.cfg", "[pypi]\npassword = pypi-AgEIcHlwaS5vcmc" + chars(URLSAFE, 60)
        + "\n");
    s.put("pay/billing.py", "stripe.api_key = \"sk_live_" + chars(ALNUM, 24) + "\"\n");
    s.put("pay/restricted.env.txt", "STRIPE=rk_live_" + chars(ALNUM, 24) + "\n");
    s.put("maps/client.ts", "const key = \"AIza" + chars(URLSAFE, 35) + "\";\n");
    s.put("auth/session.txt", "Authorization: Bearer eyJ" + chars(URLSAFE, 20) + ".eyJ"
        + chars(URLSAFE, 40) + "." + chars(URLSAFE, 43) + "\n");
    s.put("app/settings.yaml", "database:\n  host: db\n  db_password: " + chars(ALNUM, 24)
        + "\n");
    s.put("app/application.properties", "oauth.client_secret=" + chars(ALNUM, 32) + "\n");
    s.put("app/Config.java", "class Config {\n  static final String API_KEY = \""
        + chars(ALNUM, 32) + "\";\n}\n");
    return s;
  }

  /** Files that look like secrets and are not: documentation examples, placeholders, code. */
  private static Map<String, String> lookalikes() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("docs/aws.md", "Set `aws_access_key_id = AKIAIOSFODNN7EXAMPLE` and "
        + "`aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`.\n");
    s.put("src/PemReader.java", "class PemReader {\n  static final String HEADER ="
        + " \"-----BEGIN RSA PRIVATE KEY-----\";\n  boolean starts(String l) {"
        + " return l.startsWith(HEADER); }\n}\n");
    s.put("src/login.py", "def login(user):\n    password = get_password(user)\n"
        + "    token = session.token_for(user)\n    return token\n");
    s.put("conf/app.yaml", "password: ${DB_PASSWORD}\napi_key: <your-api-key-here>\n"
        + "client_secret: changeme\n");
    s.put("src/Tokenizer.java", "class Tokenizer {\n  Tokenizer tokenizer = new Tokenizer();\n"
        + "  String tokenEndpoint = \"https://oauth2.example.org/v2/token\";\n}\n");
    s.put("src/limits.go", "const maxTokens = 4096\nvar secretName = \"db-credentials-v2\"\n");
    s.put("src/Hashes.java", "/** hashedPassword = base64_encoded_64_byte_salt W hash */\n"
        + "class Hashes {}\n");
    s.put("src/lit.rs", "fn f() { let mut token = Literal::u8_suffixed(value); }\n");
    s.put("src/lock_test.go", "var c = Condition{Token: `urn:uuid:f81d4fae-7dec-11d0-a765-"
        + "00a0c91e6bf6`}\n");
    return s;
  }

  @Test
  void thirtyKindsOfSecretAreLeftOutAndLookalikesAreKept() throws Exception {
    Map<String, String> secrets = secrets();
    assertThat(secrets).hasSize(32);
    for (Map.Entry<String, String> e : secrets.entrySet()) {
      write(root, e.getKey(), e.getValue());
    }
    for (Map.Entry<String, String> e : lookalikes().entrySet()) {
      write(root, e.getKey(), e.getValue());
    }
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root)
        .embedder(TestEmbedders.fake()).threads(1).build())) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      List<String> indexed = new ArrayList<>(manifest(index).keySet());
      assertThat(indexed).as("no secret is indexed")
          .doesNotContainAnyElementsOf(secrets.keySet());
      assertThat(indexed).as("look-alikes are indexed")
          .containsAll(lookalikes().keySet());
      int keys = 5; // a key file's header on a line of its own in its first 8 KiB
      assertThat(stats.skipped()).containsEntry(SkipReason.SECRET, secrets.size() - keys)
          .containsEntry(SkipReason.PRIVATE_KEY, keys);
      assertThat(index.staleness().skipped()).isEqualTo(stats.skipped());
      assertThat(index.staleness().isStale()).isFalse();
      for (SearchMode mode : List.of(SearchMode.LITERAL, SearchMode.LEXICAL,
          SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        for (String q : List.of("aws_secret_access_key", "PRIVATE KEY", "ghp_", "xoxb",
            "db_password", "client_secret", "API_KEY", "Bearer")) {
          for (Hit h : index.search(q, SearchOpts.builder().mode(mode).limit(50).build())) {
            assertThat(secrets).as("%s '%s'", mode, q).doesNotContainKey(h.path());
          }
        }
      }
    }
  }
}
