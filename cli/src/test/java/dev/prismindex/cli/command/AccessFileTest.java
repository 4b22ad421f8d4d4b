package dev.prismindex.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.RepositoryFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The deployment's access file: a caller's allowed repositories by token, never all by mistake. */
class AccessFileTest {

  @TempDir
  Path tmp;

  private Path file(String text) throws IOException {
    Path f = tmp.resolve("access.toml");
    Files.writeString(f, text);
    return f;
  }

  private static Map<String, String> caller(Path file, @org.jspecify.annotations.Nullable String token) {
    return token == null ? Map.of(AccessFile.FILE_VARIABLE, file.toString())
        : Map.of(AccessFile.FILE_VARIABLE, file.toString(), AccessFile.TOKEN_VARIABLE, token);
  }

  @Test
  void aKnownTokenGetsItsListAndEveryOtherCallerTheDefault() throws Exception {
    Path f = file("allowed = [\"docs-*\"]\n[tokens]\n\"sha256:" + AccessFile.sha256("team-a")
        + "\" = [\"payments-*\", \"lib/*\", \"!lib/secret\"]\n");
    RepositoryFilter teamA = AccessFile.allowed(caller(f, "team-a"));
    assertThat(teamA.patterns()).containsExactly("payments-*", "lib/*", "!lib/secret");
    assertThat(teamA.matches("payments-api")).isTrue();
    assertThat(teamA.matches("lib/secret")).isFalse();
    assertThat(teamA.matches("docs-site")).isFalse();
    assertThat(AccessFile.allowed(caller(f, "someone-else")).patterns())
        .containsExactly("docs-*");
    assertThat(AccessFile.allowed(caller(f, null)).patterns()).containsExactly("docs-*");
  }

  @Test
  void noListOrNoPositivePatternAllowsNothingNeverEverything() throws Exception {
    Path f = file("[tokens]\n\"sha256:" + AccessFile.sha256("t") + "\" = [\"!secret\"]\n");
    assertThat(AccessFile.allowed(caller(f, null))).isNull();
    assertThat(AccessFile.allowed(caller(f, "t"))).isNull();
    assertThat(AccessFile.allowed(Map.of())).isEqualTo(RepositoryFilter.ALL);
  }

  @Test
  void aMalformedFileIsAUsageErrorThatNamesIt() throws Exception {
    Path bad = file("allowed = \"payments\"\n");
    assertThatThrownBy(() -> AccessFile.allowed(caller(bad, null)))
        .isInstanceOf(CliFailure.class).hasMessageContaining("must be an array");
    Path glob = file("allowed = [\"Bad Name!\"]\n");
    assertThatThrownBy(() -> AccessFile.allowed(caller(glob, null)))
        .isInstanceOf(CliFailure.class).hasMessageContaining("invalid repository name or glob");
    assertThatThrownBy(() -> AccessFile.allowed(Map.of(AccessFile.FILE_VARIABLE,
        tmp.resolve("missing.toml").toString()))).isInstanceOf(CliFailure.class)
        .hasMessageContaining("cannot read the access file");
  }
}
