package dev.prismindex.engine.internal.walk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.SkipReason;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The walk's include/exclude and secret globs are the one glob dialect (gitignore syntax). */
class FileRulesGlobTest {

  private static FileRules rules(List<String> include, List<String> exclude,
      List<String> allow, List<String> deny) {
    return new FileRules(include, exclude, false, allow, deny, FileRules.DEFAULT_MAX_DEPTH,
        FileRules.DEFAULT_MAX_PATH_BYTES);
  }

  @Test
  void includeAndExcludeReadGitignoreSyntax() {
    FileRules r = rules(List.of("*.java", "!*Test.java"), List.of("gen/", "!gen/Keep.java"),
        List.of(), List.of());
    assertThat(r.skipByName("A.java")).isNull();
    assertThat(r.skipByName("src/main/A.java")).isNull(); // a name at any depth
    assertThat(r.skipByName("src/ATest.java")).isEqualTo(SkipReason.GLOB);
    assertThat(r.skipByName("src/a.py")).isEqualTo(SkipReason.GLOB);
    assertThat(r.skipByName("src/gen/G.java")).isEqualTo(SkipReason.GLOB); // a directory
    assertThat(r.skipByName("gen/Keep.java")).isNull(); // re-admitted by the later !
  }

  @Test
  void secretGlobsReadGitignoreSyntax() {
    FileRules r = rules(List.of(), List.of(), List.of("fixtures/"), List.of("[Cc]onfidential*"));
    assertThat(r.skipByName("fixtures/keys/id_rsa")).isNull();
    assertThat(r.skipByName("id_rsa")).isEqualTo(SkipReason.SECRET);
    assertThat(r.skipByName("docs/Confidential.md")).isEqualTo(SkipReason.SECRET);
    assertThatThrownBy(() -> rules(List.of("[abc"), List.of(), List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid glob '[abc'");
  }
}
