package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which command lines start the engine's warm-up ({@link Main#probesSoon}): the one-shot commands
 * that open an index and walk the repository at once, found past the values of the options before
 * the command word (a value that is a command's name is not the command).
 */
class ProbesSoonTest {

  private static boolean probes(String... args) {
    return Main.probesSoon(args);
  }

  @Test
  void searchAndStatusWarmUp() {
    assertThat(probes("search", "needle")).isTrue();
    assertThat(probes("--repo", "dir", "search", "needle", "--mode", "literal")).isTrue();
    assertThat(probes("status", "--json")).isTrue();
    assertThat(probes("--debug", "status")).isTrue();
  }

  @Test
  void otherCommandsDoNot() {
    assertThat(probes("index", "--no-semantic")).isFalse();
    assertThat(probes("serve")).isFalse();
    assertThat(probes("mcp")).isFalse();
    assertThat(probes("doctor")).isFalse();
    assertThat(probes("completion", "bash")).isFalse();
    assertThat(probes("--version")).isFalse();
    assertThat(probes()).isFalse();
  }

  @Test
  void anOptionsValueIsNotTheCommand() {
    assertThat(probes("--repo", "search", "index")).isFalse();
    assertThat(probes("--index-dir", "status", "serve")).isFalse();
    assertThat(probes("--workspace", "search")).isFalse();
    assertThat(probes("--organisation", "status", "index")).isFalse();
    assertThat(probes("--repo", "index", "search", "x")).isTrue();
  }

  @Test
  void aQueryNamedLikeACommandIsNotTheCommand() {
    assertThat(probes("index", "search")).isFalse();
    assertThat(probes("search", "index")).isTrue();
  }
}
