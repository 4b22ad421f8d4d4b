package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Launcher.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the real launcher ({@code scripts/prism-index}) and the shaded jar, on a
 * temporary git repository. Runs in the {@code integration-test} phase (failsafe), after
 * {@code package} has built the jar, so the launcher finds it fresh and never builds. The tests
 * share one repository and run in order: index, search in every mode, status, a stale tree, and the
 * failure exits.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LauncherIT {

  @TempDir static Path repo;
  static Launcher built;
  static Path project;
  static Path launcher;
  static Path jar;
  static FileTime jarTime;

  @BeforeAll
  static void setUp() throws Exception {
    // The launcher finds the jar itself (no PRISM_INDEX_JAR): that is what this class tests.
    built = Launcher.ofThisBuild().findingItsJar();
    project = built.project;
    launcher = built.script;
    jar = built.jar;
    assertThat(launcher).isExecutable();
    jarTime = Files.getLastModifiedTime(jar);

    write("src/main/java/demo/Duration.java", """
        package demo;

        /** Parses human-readable durations. */
        public final class Duration {
          /** Parses text such as 5s, 2m or 150ms into milliseconds. */
          public static long parseDuration(String text) {
            if (text.endsWith("ms")) {
              return Long.parseLong(text.substring(0, text.length() - 2));
            }
            return Long.parseLong(text.substring(0, text.length() - 1)) * 1000;
          }
        }
        """);
    write("src/main/java/demo/Freshness.java", """
        package demo;

        /** Checks whether the search index is stale compared with the files on disk. */
        final class Freshness {
          boolean indexIsStale(long indexedAtMillis, long fileModifiedAtMillis) {
            return fileModifiedAtMillis > indexedAtMillis;
          }
        }
        """);
    write("scripts/deploy.py", """
        def upload_release(bucket, version):
            \"\"\"Copies the built artifacts of a release to the storage bucket.\"\"\"
            print("uploading", version, "to", bucket)
        """);
    StringBuilder many = new StringBuilder();
    for (int i = 1; i <= 1500; i++) {
      many.append("needle number ").append(i).append(" in a haystack of generated lines\n");
    }
    write("data/haystack.txt", many.toString());
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "fixture");
  }

  private static void write(String rel, String content) throws IOException {
    Launcher.write(repo, rel, content);
  }

  private static void git(String... args) throws Exception {
    Launcher.git(repo, args);
  }

  /** Runs the launcher in the repository (so --repo defaults to it) with a clean environment. */
  private static Run launch(String... args) throws Exception {
    return Launcher.run(built.launcher(repo, args));
  }

  private static Run exec(List<String> cmd) throws Exception {
    return Launcher.run(built.command(repo, cmd));
  }

  @Test
  @Order(1)
  void theLauncherRunsTheBuiltJarWithoutRebuildingIt() throws Exception {
    Run r = launch("--version");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("prism-index ");
    assertThat(r.err()).isEmpty();
    assertThat(Files.getLastModifiedTime(jar)).isEqualTo(jarTime);
  }

  /** {@code index} runs with C1 only on one or two processors, with the JVM's defaults above. */
  @Test
  @Order(2)
  void indexTunesTheCompilersToTheProcessorCount(@TempDir Path fake) throws Exception {
    Path args = fake.resolve("args");
    Path java = Files.createDirectories(fake.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\necho \"$@\" > '" + args + "'\nexit 0\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Process getconf = new ProcessBuilder("getconf", "_NPROCESSORS_ONLN").start();
    int processors = Integer.parseInt(new String(getconf.getInputStream().readAllBytes(),
        StandardCharsets.US_ASCII).strip());
    // search: C1 and the serial collector; index on two processors or fewer: C1 and the serial
    // collector, with vectors or without (--no-semantic); on more: the defaults.
    for (List<String> command : List.of(List.of("index", "--json"),
        List.of("index", "--no-semantic", "--json"), List.of("search", "--json", "x"))) {
      ProcessBuilder pb = built.launcher(repo, command.toArray(String[]::new));
      pb.environment().put("JAVA_HOME", fake.toString());
      Run r = Launcher.run(pb);
      assertThat(r.exit()).as(r.toString()).isZero();
      String jvm = Files.readString(args);
      boolean c1Only = jvm.contains("-XX:TieredStopAtLevel=1 ");
      boolean serial = jvm.contains("-XX:+UseSerialGC ");
      boolean search = command.get(0).equals("search");
      assertThat(c1Only).as("%s on %d processors: %s", command, processors, jvm)
          .isEqualTo(search || processors <= 2);
      assertThat(serial).as("%s on %d processors: %s", command, processors, jvm)
          .isEqualTo(search || processors <= 2);
    }
  }

  @Test
  @Order(3)
  void aMissingIndexIsExit3() throws Exception {
    Run r = launch("search", "duration");
    assertThat(r.exit()).as(r.toString()).isEqualTo(3);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("prism-index search: no index at "
        + repo.toRealPath().resolve(".prism-index") + "; run `prism-index index`\n");
  }

  @Test
  @Order(4)
  void badFlagsAreExit2() throws Exception {
    for (String[] args : List.of(new String[] {"search"},
        new String[] {"search", "x", "--mode", "fuzzy"}, new String[] {"search", "x", "--limit",
            "0"}, new String[] {"search", "x", "--bogus"}, new String[] {"frobnicate"})) {
      Run r = launch(args);
      assertThat(r.exit()).as(r.toString()).isEqualTo(2);
      assertThat(r.out()).isEmpty();
      assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
    }
  }

  @Test
  @Order(5)
  void indexBuildsTheIndexWithEmbeddings() throws Exception {
    Run r = launch("index", "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    JsonNode s = r.json().get(0);
    assertThat(r.json()).hasSize(1);
    assertThat(s.get("files").asInt()).isEqualTo(4);
    assertThat(s.get("committed").asBoolean()).isTrue();
    assertThat(s.get("model").asText()).isEqualTo("prism-code-v1-t1");
    assertThat(s.get("chunksEmbedded").asInt()).isPositive();
    assertThat(s.get("semanticCoverage").asDouble()).isEqualTo(1.0);
    assertThat(repo.resolve(".prism-index/.gitignore")).hasContent("*");
  }

  @Test
  @Order(6)
  void searchInHybridAndSemanticModeWithTheRealModel() throws Exception {
    Run hybrid = launch("search", "copy the release artifacts to storage", "--json");
    assertThat(hybrid.exit()).as(hybrid.toString()).isZero();
    assertThat(hybrid.err()).isEmpty();
    List<JsonNode> hits = hybrid.json();
    hits.forEach(h -> SearchCommandTest.assertSchema(h, "hybrid"));
    assertThat(hits.get(0).get("path").asText()).isEqualTo("scripts/deploy.py");

    Run semantic = launch("search", "check whether the index is out of date", "--json", "--mode",
        "semantic", "--limit", "3");
    assertThat(semantic.exit()).as(semantic.toString()).isZero();
    List<JsonNode> sem = semantic.json();
    assertThat(sem).hasSize(3).allSatisfy(h -> SearchCommandTest.assertSchema(h, "semantic"));
    assertThat(sem.get(0).get("path").asText()).isEqualTo("src/main/java/demo/Freshness.java");

    Run human = launch("search", "where is the stale index check");
    assertThat(human.exit()).as(human.toString()).isZero();
    assertThat(human.out()).startsWith("hybrid search (lexical + semantic): ")
        .contains("src/main/java/demo/Freshness.java:").doesNotContain("\u001b[");
  }

  @Test
  @Order(6)
  void searchInLexicalAndLiteralMode() throws Exception {
    Run lexical = launch("search", "parseDuration", "--json", "--mode", "lexical");
    assertThat(lexical.exit()).as(lexical.toString()).isZero();
    assertThat(lexical.err()).isEmpty();
    List<JsonNode> hits = lexical.json();
    assertThat(hits).isNotEmpty();
    hits.forEach(h -> SearchCommandTest.assertSchema(h, "lexical"));
    assertThat(hits.get(0).get("path").asText()).isEqualTo("src/main/java/demo/Duration.java");

    Run literal = launch("search", "Long.parseLong(", "--json", "--mode", "literal");
    assertThat(literal.exit()).as(literal.toString()).isZero();
    assertThat(literal.json()).hasSize(2)
        .allSatisfy(h -> SearchCommandTest.assertSchema(h, "literal"));
  }

  /**
   * A one-shot literal search loads no Jackson mapper (a workspace file is looked for, not read:
   * building the TOML mapper cost tens of milliseconds of every search) and answers as before.
   */
  @Test
  @Order(6)
  void aLiteralSearchBuildsNoJacksonMapper(@TempDir Path logs) throws Exception {
    Path classes = logs.resolve("classes.txt");
    ProcessBuilder pb = built.launcher(repo, "search", "Long.parseLong(", "--json", "--mode",
        "literal");
    pb.environment().put("PRISM_INDEX_JAVA_OPTS", "-Xlog:class+load:file=" + classes);
    Run r = Launcher.run(pb);
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json()).hasSize(2);
    List<String> loaded = Files.readAllLines(classes);
    assertThat(loaded).anyMatch(l -> l.contains(" dev.prismindex.cli.command.WorkspaceFile "))
        .anyMatch(l -> l.contains(" com.fasterxml.jackson.core.JsonFactory "))
        .noneMatch(l -> l.contains(" com.fasterxml.jackson.databind."));
  }

  @Test
  @Order(7)
  void statusReportsAFreshIndex() throws Exception {
    Run r = launch("status", "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    JsonNode s = r.json().get(0);
    assertThat(s.get("state").asText()).isEqualTo("ready");
    assertThat(s.get("files").asInt()).isEqualTo(4);
    assertThat(s.get("availableModel").asText()).isEqualTo("prism-code-v1-t1");
    assertThat(s.get("model").asText()).isEqualTo("prism-code-v1-t1");
    assertThat(s.get("semantic").asText()).isEqualTo("available");
    assertThat(s.get("semanticCoverage").asDouble()).isEqualTo(1.0);
  }

  @Test
  @Order(8)
  void aClosedPipeEndsQuietlyWithExit0() throws Exception {
    // 1000 NDJSON lines (~100 KB) overflow the pipe buffer after head has gone away.
    Run r = exec(List.of("bash", "-c", "\"$0\" search needle --mode literal --json --limit 1000"
        + " | head -1; echo \"launcher=${PIPESTATUS[0]}\" >&2", launcher.toString()));
    assertThat(r.out().lines().count()).isEqualTo(1);
    assertThat(r.json().get(0).get("path").asText()).isEqualTo("data/haystack.txt");
    assertThat(r.err()).isEqualTo("launcher=0\n");
  }

  @Test
  @Order(9)
  void aSmallChangeIsPickedUpAndALargeOneIsExit3() throws Exception {
    write("src/main/java/demo/Quokka.java", "package demo;\nclass Quokka { int marsupial; }\n");
    Run small = launch("search", "marsupial", "--json");
    assertThat(small.exit()).as(small.toString()).isZero();
    assertThat(small.json()).extracting(h -> h.get("path").asText())
        .contains("src/main/java/demo/Quokka.java");

    for (int i = 0; i < 3; i++) {
      write("gen/G" + i + ".java", "class G" + i + " { int wallaby; }\n");
    }
    Run large = launch("search", "wallaby", "--json", "--max-refresh-files", "2");
    assertThat(large.exit()).as(large.toString()).isEqualTo(3);
    assertThat(large.out()).isEmpty();
    assertThat(large.err()).contains("3 files changed").contains("run `prism-index index`");

    Run status = launch("status", "--json", "--max-refresh-files", "2");
    assertThat(status.exit()).isEqualTo(3);
    assertThat(status.json().get(0).get("state").asText()).isEqualTo("outdated");

    Run old = launch("search", "wallaby", "--json", "--no-refresh", "--mode", "lexical");
    assertThat(old.exit()).isZero();
    assertThat(old.out()).isEmpty();

    Run index = launch("index");
    assertThat(index.exit()).as(index.toString()).isZero();
    assertThat(index.out()).contains("3 added");
    assertThat(launch("search", "wallaby", "--json", "--mode", "lexical").json()).hasSize(3);
  }

  @Test
  @Order(10)
  void colourOnATerminalOnlyAndNeverWithNoColor() throws Exception {
    // script(1) gives the launcher a pseudo-terminal as stdout.
    String cmd = "'" + launcher + "' search parseDuration --mode lexical";
    Run tty = exec(List.of("script", "-qec", cmd, "/dev/null"));
    assertThat(tty.exit()).as(tty.toString()).isZero();
    assertThat(tty.out()).contains("\u001b[35msrc/main/java/demo/Duration.java\u001b[0m:");
    Run noColor = exec(List.of("env", "NO_COLOR=1", "script", "-qec", cmd, "/dev/null"));
    assertThat(noColor.exit()).isZero();
    assertThat(noColor.out()).contains("src/main/java/demo/Duration.java:").doesNotContain("\u001b[");
  }

  /**
   * With no locale set (C or POSIX: a container, cron, {@code env -i}), a JVM encodes file names
   * in ASCII and cannot open a file whose name is not: without the launcher's C.UTF-8 the whole
   * index run failed on one such name.
   */
  @Test
  @Order(11)
  void aFileNamedOutsideAsciiIsIndexedWithNoLocaleSet(@TempDir Path dir) throws Exception {
    shell(dir, "U=$(printf '\\303\\234'); N=$(printf '\\303\\261'); mkdir -p src;"
        + " echo 'class U { void umlautNeedle() {} }' > \"src/${U}ber $N.java\"");
    try {
      for (String locale : List.of("C", "POSIX")) {
        Run index = withoutLocale(built.launcher(dir, "index", "--no-semantic", "--full"), locale);
        assertThat(index.exit()).as(index.toString()).isZero();
        Run search = withoutLocale(
            built.launcher(dir, "search", "umlautNeedle", "--mode", "literal", "--json"), locale);
        assertThat(search.exit()).as(search.toString()).isZero();
        assertThat(search.out()).contains("\"path\":\"src/\u00dcber \u00f1.java\"");
      }
    } finally {
      shell(dir, "rm -rf src");
    }
  }

  /**
   * The jar alone (a host application, or {@code java -jar} without the launcher) in the C locale
   * cannot read such a file: it is left out as unreadable, and the rest is indexed and found; one
   * such name failed the whole run before.
   */
  @Test
  @Order(12)
  void withoutTheLauncherAFileItCannotNameIsLeftOutNotAFailure(@TempDir Path dir)
      throws Exception {
    shell(dir, "U=$(printf '\\303\\234'); mkdir -p \"src/$U\";"
        + " echo 'class U { void needle() {} }' > \"src/${U}ber.java\";"
        + " echo 'class V { void needle() {} }' > \"src/$U/V.java\";"
        + " echo 'class A { void needle() {} }' > src/A.java");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    try {
      for (boolean git : List.of(false, true)) {
        if (git) {
          assertThat(new ProcessBuilder("git", "init", "-q").directory(dir.toFile()).inheritIO()
              .start().waitFor()).isZero();
        }
        Run index = withoutLocale(built.command(dir, List.of(java, "-jar", built.jar.toString(),
            "index", "--no-semantic", "--full", "--json")), "C");
        assertThat(index.exit()).as(index.toString()).isZero();
        assertThat(index.json().get(0).path("files").asInt()).as(index.toString()).isEqualTo(1);
        assertThat(index.json().get(0).path("skippedBy").path("unreadable").asInt())
            .as("%s walk: %s", git ? "git" : "plain", index).isEqualTo(2);
        for (String mode : List.of("literal", "lexical")) {
          Run search = withoutLocale(built.command(dir, List.of(java, "-jar",
              built.jar.toString(), "search", "needle", "--mode", mode, "--json")), "C");
          assertThat(search.exit()).as(search.toString()).isZero();
          assertThat(search.json()).extracting(n -> n.path("path").asText())
              .containsExactly("src/A.java");
        }
      }
    } finally {
      shell(dir, "rm -rf src");
    }
  }

  /**
   * Runs {@code script} with {@code sh} in {@code dir}: files named by their UTF-8 bytes, and
   * removed, whatever this JVM's own locale (one without UTF-8 could not name them).
   */
  private static void shell(Path dir, String script) throws Exception {
    Process p = new ProcessBuilder("sh", "-c", script).directory(dir.toFile()).inheritIO().start();
    assertThat(p.waitFor()).as(script).isZero();
  }

  private static Run withoutLocale(ProcessBuilder pb, String locale) throws Exception {
    pb.environment().remove("LC_ALL");
    pb.environment().remove("LC_CTYPE");
    pb.environment().put("LANG", locale);
    return Launcher.run(pb);
  }
}
