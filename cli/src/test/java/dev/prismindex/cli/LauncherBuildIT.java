package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's own logic on a throw-away project layout: a copy of {@code scripts/prism-index},
 * the real jar, and a fake {@code mvn} on the PATH that records its arguments and "builds" by
 * copying the real jar. When it builds, whether a damaged class-data archive is survived.
 */
class LauncherBuildIT {

  @TempDir Path project;
  Path jar;
  Launcher built;
  Path mvnLog;
  Path bin;

  @BeforeEach
  void setUp() throws Exception {
    built = Launcher.ofThisBuild();
    Path real = built.jar;
    Files.createDirectories(project.resolve("scripts"));
    Files.copy(built.script, project.resolve("scripts/prism-index"));
    Files.writeString(project.resolve("pom.xml"), "<project/>\n");
    Files.createDirectories(project.resolve("cli/src/main/java"));
    Files.writeString(project.resolve("cli/src/main/java/A.java"), "class A {}\n");
    Files.createDirectories(project.resolve("cli/target"));
    jar = project.resolve("cli/target/prism-index.jar");
    bin = Files.createDirectories(project.resolve("fake-bin"));
    mvnLog = project.resolve("mvn.log");
    Path mvn = bin.resolve("mvn");
    Files.writeString(mvn, "#!/usr/bin/env bash\n"
        + "echo \"$PWD $*\" >> '" + mvnLog + "'\n"
        + "if [[ -n \"${FAKE_MVN_FAIL:-}\" ]]; then echo 'BUILD FAILURE: something broke'; exit 1; fi\n"
        + "echo 'chatter that must not be shown'\n"
        + "cp '" + real.toAbsolutePath() + "' '" + jar + "'\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Launcher.Run launch(List<String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("env", "PATH=" + bin + ":" + System.getenv("PATH")));
    cmd.addAll(env);
    cmd.add(project.resolve("scripts/prism-index").toString());
    cmd.addAll(List.of(args));
    return Launcher.run(built.findingItsJar().command(project, cmd));
  }

  private List<String> mvnCalls() throws IOException {
    return Files.exists(mvnLog) ? Files.readAllLines(mvnLog) : List.of();
  }

  @Test
  void aMissingJarIsBuiltQuietlyOnceWithTheDocumentedCommand() throws Exception {
    Launcher.Run first = launch(List.of(), "--version");
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).startsWith("prism-index ");
    assertThat(first.err()).isEmpty();
    assertThat(mvnCalls()).containsExactly(project.toRealPath()
        + " -q -B -ntp -DskipTests -Dmaven.javadoc.skip -Dmaven.source.skip -pl cli -am package");
    Launcher.Run second = launch(List.of(), "--version");
    assertThat(second.exit()).isZero();
    assertThat(mvnCalls()).hasSize(1);
  }

  @Test
  void aSourceOrPomNewerThanTheJarTriggersARebuildButATestFileDoesNot() throws Exception {
    assertThat(launch(List.of(), "--version").exit()).isZero();
    FileTime past = FileTime.from(Instant.now().minusSeconds(3600));
    Files.setLastModifiedTime(jar, past);
    Files.createDirectories(project.resolve("cli/src/test/java"));
    Files.writeString(project.resolve("cli/src/test/java/T.java"), "class T {}\n");
    FileTime older = FileTime.from(Instant.now().minusSeconds(7200));
    Files.setLastModifiedTime(project.resolve("cli/src/main/java/A.java"), older);
    Files.setLastModifiedTime(project.resolve("pom.xml"), older);
    assertThat(launch(List.of(), "--version").exit()).isZero();
    assertThat(mvnCalls()).as("only a test file is newer").hasSize(1);

    Files.setLastModifiedTime(jar, past);
    Files.writeString(project.resolve("cli/src/main/java/A.java"), "class A { int x; }\n");
    assertThat(launch(List.of(), "--version").exit()).isZero();
    assertThat(mvnCalls()).hasSize(2);

    Files.setLastModifiedTime(jar, past);
    Files.setLastModifiedTime(project.resolve("cli/src/main/java/A.java"), older);
    Files.writeString(project.resolve("pom.xml"), "<project></project>\n");
    assertThat(launch(List.of(), "--version").exit()).isZero();
    assertThat(mvnCalls()).hasSize(3);
  }

  @Test
  void aFailedBuildShowsMavensOutputAndExits1() throws Exception {
    Launcher.Run r = launch(List.of("FAKE_MVN_FAIL=1"), "--version");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("BUILD FAILURE: something broke")
        .contains("prism-index: building the jar failed");
  }

  @Test
  void theFirstStatusRecordsAClassDataArchiveAndADamagedOneIsDroppedAndSurvived()
      throws Exception {
    Path archive = project.resolve("cli/target/prism-index.jsa");
    Path empty = Files.createDirectories(project.resolve("empty-repo"));
    Launcher.Run first = launch(List.of(), "--repo", empty.toString(), "status", "--json");
    assertThat(first.exit()).as(first.err()).isEqualTo(3);
    assertThat(archive).as("only a successful run keeps its record").doesNotExist();

    assertThat(launch(List.of(), "--version").exit()).isZero();
    Launcher.Run help = launch(List.of(), "search", "--help");
    assertThat(help.exit()).isZero();
    assertThat(archive).exists();
    assertThat(Files.size(archive)).isGreaterThan(1_000_000);
    try (var files = Files.list(archive.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }

    assertThat(project.resolve("cli/target/prism-index.jsa.size"))
        .hasContent(Long.toString(Files.size(archive)));

    // A truncated archive would crash the JVM while mapping it: the size check drops it first,
    // and this search records a new one.
    byte[] head = new byte[200_000];
    try (var in = Files.newInputStream(archive)) {
      assertThat(in.readNBytes(head, 0, head.length)).isEqualTo(head.length);
    }
    Files.delete(archive);
    Files.write(archive, head);
    Launcher.Run damaged = launch(List.of(), "search", "--help");
    assertThat(damaged.exit()).isZero();
    assertThat(damaged.out()).startsWith("Usage: prism-index search");
    assertThat(damaged.err()).isEmpty();
    assertThat(Files.size(archive)).isGreaterThan(1_000_000);

    // A bit flip inside is caught by the JVM's checksum: the archive is ignored, output is clean.
    try (var raf = new java.io.RandomAccessFile(archive.toFile(), "rw")) {
      raf.seek(Files.size(archive) / 2);
      raf.write(new byte[4096]);
    }
    Launcher.Run flipped = launch(List.of(), "search", "--help");
    assertThat(flipped.exit()).isZero();
    assertThat(flipped.out()).startsWith("Usage: prism-index search");
    assertThat(flipped.err()).isEmpty();
    Files.delete(archive);

    // No archive at all when asked.
    assertThat(launch(List.of("PRISM_INDEX_CDS=0"), "search", "--help").exit()).isZero();
    assertThat(archive).doesNotExist();
  }
}
