package dev.prismindex.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archives {@code mvn package} built, as a user meets them: unpacked into empty directories
 * and run through a symlink to {@code bin/prism-index} (as from {@code ~/.local/bin}) with a PATH
 * that holds a few system tools and neither Maven nor Java, on a small git repository made here.
 * The plain archive runs on this JVM's Java through {@code JAVA_HOME} (and lets the resident
 * server answer without a JVM); the platform archive runs on its own runtime with no
 * {@code JAVA_HOME} at all, indexing with the embedding model (its jar keeps only this platform's
 * native libraries). Also: what the archives hold (launchers, completion, licences of every bundled
 * dependency) and the JBang catalog's coordinates.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ArchiveIT {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String NAME = System.getProperty("prism.dist.name", "prism-index");
  static final String VERSION = System.getProperty("prism.version", "unknown");
  static final Path DIST = Path.of(System.getProperty("prism.dist.dir", "target/dist"));
  static final Path PROJECT = Path.of(System.getProperty("prism.project.root", "..")).toAbsolutePath()
      .normalize();
  static final String PLATFORM = System.getProperty("prism.runtime.platform", "");

  /** The commands the launcher (and a background server's start) may run; no mvn, no java. */
  static final List<String> TOOLS = List.of("bash", "env", "readlink", "dirname", "cat", "wc", "mv",
      "rm", "mkdir", "cksum", "cut", "setsid", "flock", "mktemp", "find", "touch");

  @TempDir static Path work;
  static Path tools;
  static Path repo;
  static Path plain;
  static Path home;

  @BeforeAll
  static void setUp() throws Exception {
    tools = Files.createDirectories(work.resolve("tools"));
    for (String tool : TOOLS) {
      Path found = onPath(tool);
      if (found != null) {
        Files.createSymbolicLink(tools.resolve(tool), found);
      }
    }
    assertThat(tools.resolve("java")).doesNotExist();
    assertThat(tools.resolve("mvn")).doesNotExist();
    home = Files.createDirectories(work.resolve("home"));

    repo = Files.createDirectories(work.resolve("repo"));
    write(repo, "src/demo/Duration.java", """
        package demo;

        /** Parses human-readable durations. */
        public final class Duration {
          /** Parses text such as 5s or 2m into milliseconds. */
          public static long parseDuration(String text) {
            return Long.parseLong(text.substring(0, text.length() - 1)) * 1000;
          }
        }
        """);
    write(repo, "src/demo/Retry.java", """
        package demo;

        /** Retries a failing call with exponential backoff. */
        final class Retry {
          static long backoffMillis(int attempt) {
            return 100L << Math.min(attempt, 10);
          }
        }
        """);
    write(repo, "README.md", "# Demo\n\nDurations and retries.\n");
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "fixture");

    plain = unpack(DIST.resolve(NAME + ".tar.gz"), "plain");
  }

  @AfterAll
  static void stopServers() throws Exception {
    // A server the resident-server test started names the index on its command line.
    String index = repo.resolve(".prism-index").toString();
    List<ProcessHandle> left = ProcessHandle.allProcesses()
        .filter(p -> p.info().arguments().map(a -> List.of(a).contains(index)).orElse(false))
        .toList();
    for (ProcessHandle p : left) {
      p.destroy();
      p.onExit().get(30, TimeUnit.SECONDS);
    }
  }

  // --- what the archives hold -----------------------------------------------------------------

  @Test
  void thePlainArchivesHoldTheLaunchersTheJarTheCompletionScriptsAndTheLicences()
      throws Exception {
    assertThat(plain.resolve("bin/prism-index")).isExecutable()
        .hasSameBinaryContentAs(PROJECT.resolve("scripts/prism-index"));
    String cmd = Files.readString(plain.resolve("bin/prism-index.cmd"));
    assertThat(cmd).contains("\r\n").contains("lib\\prism-index.jar").contains("runtime\\bin\\java.exe");
    assertThat(plain.resolve("lib/prism-index.jar")).isRegularFile();
    assertThat(plain.resolve("LICENSE")).hasSameTextualContentAs(PROJECT.resolve("LICENSE"));
    assertThat(Files.readString(plain.resolve("README.md"))).contains("# prism-index " + VERSION)
        .doesNotContain("${");
    try (Stream<Path> files = Files.list(plain.resolve("share/completions"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
          "prism-index.bash", "prism-index.zsh", "prism-index.fish");
    }
    // The man pages, one per command, troff generated from the jar's own command line.
    try (Stream<Path> files = Files.list(plain.resolve("share/man/man1"))) {
      assertThat(files.map(p -> p.getFileName().toString())).contains("prism-index.1",
          "prism-index-search.1", "prism-index-serve.1", "prism-index-doctor.1");
    }
    assertThat(Files.readString(plain.resolve("share/man/man1/prism-index-search.1")))
        .startsWith("'\\\" t").contains(".TH \"PRISM\\-INDEX\\-SEARCH\" \"1\"")
        .contains("\\-\\-files\\-with\\-matches").contains("\\-\\-max\\-count");
    assertThat(plain.resolve("share/doc/cli.md")).hasSameTextualContentAs(
        PROJECT.resolve("docs/cli.md"));
    assertThat(plain.resolve("share/doc/CHANGELOG.md")).isRegularFile();

    // The zip holds the same files as the tar.gz (less the launcher's class-data archive, which
    // the other tests' runs may have recorded since).
    Set<String> tarFiles = new TreeSet<>();
    try (Stream<Path> all = Files.walk(plain)) {
      all.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().startsWith("prism-index.jsa"))
          .forEach(p -> tarFiles.add(NAME + "/" + plain.relativize(p).toString()));
    }
    Set<String> zipFiles = new TreeSet<>();
    try (ZipFile zip = new ZipFile(DIST.resolve(NAME + ".zip").toFile())) {
      zip.stream().filter(e -> !e.isDirectory()).forEach(e -> zipFiles.add(e.getName()));
    }
    assertThat(zipFiles).isEqualTo(tarFiles);
  }

  @Test
  void theLicencesNameEveryDependencyInTheJarAndTheTextOfEveryLicence() throws Exception {
    Path licences = plain.resolve("licenses");
    String inventory = Files.readString(licences.resolve("THIRD-PARTY.txt"));
    // Every dependency the shaded jar carries (by the Maven metadata it keeps) is listed.
    Set<String> bundled = new TreeSet<>();
    try (JarFile jar = new JarFile(plain.resolve("lib/prism-index.jar").toFile())) {
      Pattern meta = Pattern.compile("META-INF/maven/([^/]+)/([^/]+)/pom\\.properties");
      jar.stream().map(ZipEntry::getName).map(meta::matcher).filter(Matcher::matches)
          .filter(m -> !m.group(1).equals("dev.prismindex"))
          .forEach(m -> bundled.add(m.group(1) + ":" + m.group(2) + ":"));
    }
    assertThat(bundled).hasSizeGreaterThan(15).contains("org.eclipse.jgit:org.eclipse.jgit:",
        "io.modelcontextprotocol.sdk:mcp-core:", "com.fasterxml.jackson.core:jackson-core:");
    // Those without that metadata, by name.
    bundled.addAll(List.of("org.apache.lucene:lucene-core:", "info.picocli:picocli:",
        "com.microsoft.onnxruntime:onnxruntime:", "io.github.bonede:tree-sitter:",
        "ai.djl.huggingface:tokenizers:"));
    for (String artifact : bundled) {
      assertThat(inventory).as("THIRD-PARTY.txt lists " + artifact).contains("(" + artifact);
    }
    assertThat(inventory).doesNotContain("dev.prismindex:");
    // Each licence it names has its text in licenses/texts/.
    Matcher names = Pattern.compile("^\\s+((?:\\([^)]+\\) )+)", Pattern.MULTILINE)
        .matcher(inventory);
    Set<String> licenceNames = new TreeSet<>();
    while (names.find()) {
      Matcher one = Pattern.compile("\\(([^)]+)\\)").matcher(names.group(1));
      while (one.find()) {
        licenceNames.add(one.group(1));
      }
    }
    assertThat(licenceNames).contains("Apache-2.0", "MIT");
    for (String licence : licenceNames) {
      assertThat(licences.resolve("texts/" + licence + ".txt")).as(licence).isRegularFile();
    }
    assertThat(licences.resolve("texts/Apache-2.0.txt"))
        .hasSameTextualContentAs(PROJECT.resolve("LICENSE"));
    // The files the dependencies ship themselves.
    assertThat(licences.resolve("lucene-core-" + version(inventory, "org.apache.lucene:lucene-core")
        + "-jar/META-INF/NOTICE.txt")).isRegularFile();
  }

  @Test
  void theJbangCatalogRunsThisVersionsMainClass() throws Exception {
    JsonNode alias = JSON.readTree(PROJECT.resolve("jbang-catalog.json").toFile())
        .path("aliases").path("prism-index");
    assertThat(alias.path("script-ref").asText())
        .isEqualTo("dev.prismindex:prism-index-cli:" + VERSION);
    try (JarFile jar = new JarFile(plain.resolve("lib/prism-index.jar").toFile())) {
      assertThat(alias.path("main").asText())
          .isEqualTo(jar.getManifest().getMainAttributes().getValue("Main-Class"));
    }
  }

  // --- running them ---------------------------------------------------------------------------

  @Test
  void thePlainArchiveIndexesAndSearchesThroughASymlinkWithoutMavenOrJavaOnThePath()
      throws Exception {
    Path bin = link(plain, "bin-plain");
    Map<String, String> env = env(bin);
    env.put("JAVA_HOME", System.getProperty("java.home"));

    Run version = run(repo, env, "prism-index", "--version");
    assertThat(version.exit()).as(version.toString()).isZero();
    assertThat(version.out().lines().findFirst().orElseThrow())
        .matches(java.util.regex.Pattern.quote("prism-index " + VERSION)
            + "( \\(commit [0-9a-f]{12}\\))?");
    assertThat(version.out()).contains("\nmodel:          all-minilm-l6-v2-q-t64")
        .contains("\nnative library: libprism-native.so ").contains("\njava:           ");

    Run index = run(repo, env, "prism-index", "index", "--no-semantic", "--json");
    assertThat(index.exit()).as(index.toString()).isZero();
    assertThat(index.err()).isEmpty();
    assertThat(JSON.readTree(index.out()).path("files").asInt()).isEqualTo(3);

    Run search = run(repo.resolve("src"), env, "prism-index", "search", "parseDuration", "--json");
    assertThat(search.exit()).as(search.toString()).isZero();
    assertThat(search.err()).isEmpty();
    JsonNode first = JSON.readTree(search.out().lines().findFirst().orElseThrow());
    assertThat(first.path("path").asText()).isEqualTo("src/demo/Duration.java");
    assertThat(first.path("line").asInt()).isEqualTo(6);

    // Installed, the completion scripts come from share/completions/, the jar's own output.
    Run bash = run(repo, env, "prism-index", "completion", "bash");
    assertThat(bash.exit()).isZero();
    assertThat(bash.out()).isEqualTo(Files.readString(plain.resolve("share/completions/prism-index.bash")));
    env.put("PRISM_INDEX_JAR", plain.resolve("lib/prism-index.jar").toString());
    for (String shell : List.of("bash", "zsh", "fish")) {
      Run jvm = run(repo, env, "prism-index", "completion", shell);
      assertThat(jvm.exit()).isZero();
      assertThat(plain.resolve("share/completions/prism-index." + shell)).hasContent(jvm.out());
    }
  }

  @Test
  void withoutAnyJavaTheLauncherSaysWhatToDo() throws Exception {
    Path bin = link(plain, "bin-nojava");
    Run r = run(repo, env(bin), "prism-index", "--version");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("prism-index: no Java found: set JAVA_HOME");
  }

  @Test
  void anInstalledLauncherNeverBuildsAndAStrayCopyOfItSaysWhatIsMissing() throws Exception {
    Path bin = link(plain, "bin-mvn");
    Path marker = work.resolve("maven-was-run");
    Path mvn = bin.resolve("mvn");
    Files.writeString(mvn, "#!/bin/sh\necho \"$@\" >> '" + marker + "'\nexit 1\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env = env(bin);
    env.put("JAVA_HOME", System.getProperty("java.home"));
    // With Maven at hand (a fake one that would leave a marker), an installation is never built.
    Run r = run(repo, env, "prism-index", "--version");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(marker).doesNotExist();

    Path stray = Files.createDirectories(work.resolve("stray/bin")).resolve("prism-index");
    Files.copy(plain.resolve("bin/prism-index"), stray);
    Run lost = run(repo, env, stray.toString(), "--version");
    assertThat(lost.exit()).isEqualTo(1);
    assertThat(lost.err()).startsWith("prism-index: no jar found: neither "
        + work.toRealPath().resolve("stray/lib/prism-index.jar"));
    assertThat(marker).doesNotExist();
  }

  @Test
  void aResidentServerAnswersTheInstalledLauncherWithoutStartingAJvm() throws Exception {
    Path unpacked = unpack(DIST.resolve(NAME + ".tar.gz"), "served");
    Path bin = link(unpacked, "bin-served");
    Path served = Files.createDirectories(work.resolve("served-repo"));
    write(served, "src/Parse.java", "class Parse { long parseDuration(String s) { return 0; } }\n");
    git(served, "init", "-q");
    Path index = served.resolve(".prism-index");
    Map<String, String> env = env(bin);
    env.put("JAVA_HOME", System.getProperty("java.home"));
    try {
      assertThat(run(served, env, "prism-index", "index", "--no-semantic").exit()).isZero();
      // The first search records the class-data archive, in its own process, starting no server.
      assertThat(run(served, env, "prism-index", "search", "parseDuration").exit()).isZero();
      assertThat(unpacked.resolve("lib/prism-index.jsa")).isRegularFile();
      env.remove("PRISM_INDEX_SERVE");
      Run inProcess = run(served, env, "prism-index", "search", "parseDuration", "--json");
      assertThat(inProcess.exit()).as(inProcess.toString()).isZero();
      Path port = index.resolve("serve/serve.port");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(port) && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(port).as("a server started in the background").exists();

      // A java that must never run: the answer comes from the server through bash.
      Path marker = work.resolve("a-jvm-was-started");
      Path fakeJava = Files.createDirectories(work.resolve("no-jvm/bin")).resolve("java");
      Files.writeString(fakeJava, "#!/bin/sh\necho \"$@\" >> '" + marker + "'\nexit 99\n");
      Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));
      env.put("JAVA_HOME", work.resolve("no-jvm").toString());
      Run byBash = run(served, env, "prism-index", "search", "parseDuration", "--json");
      assertThat(marker).doesNotExist();
      assertThat(byBash.exit()).as(byBash.toString()).isZero();
      assertThat(byBash.out()).isEqualTo(inProcess.out());
    } finally {
      env.put("JAVA_HOME", System.getProperty("java.home"));
      env.put("PRISM_INDEX_SERVE", "0");
      run(served, env, "prism-index", "serve", "--stop");
    }
  }

  @Test
  void thePlatformArchiveRunsOnItsOwnRuntimeWithTheModel() throws Exception {
    assumeTrue(!PLATFORM.isEmpty(), "no platform archive on this platform");
    Path archive = DIST.resolve(NAME + "-" + PLATFORM + ".tar.gz");
    Path unpacked = unpack(archive, "runtime");
    assertThat(unpacked.resolve("runtime/bin/java")).isExecutable();
    assertThat(unpacked.resolve("runtime/lib/server/classes.jsa")).isRegularFile();
    try (JarFile jar = new JarFile(unpacked.resolve("lib/prism-index.jar").toFile())) {
      List<String> natives = jar.stream().map(ZipEntry::getName)
          .filter(n -> n.matches(".*\\.(so|dll|dylib)")).toList();
      assertThat(natives).isNotEmpty()
          .noneMatch(n -> n.contains("osx") || n.contains("macos") || n.contains("win"));
      assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
          .isEqualTo("dev.prismindex.cli.Main");
    }
    Path bin = link(unpacked, "bin-runtime");
    Map<String, String> env = env(bin);   // no JAVA_HOME, no java on the PATH

    Run version = run(repo, env, "prism-index", "--version");
    assertThat(version.exit()).as(version.toString()).isZero();
    assertThat(version.out().lines().findFirst().orElseThrow())
        .matches(java.util.regex.Pattern.quote("prism-index " + VERSION)
            + "( \\(commit [0-9a-f]{12}\\))?");
    assertThat(version.out()).contains("\nmodel:          all-minilm-l6-v2-q-t64")
        .contains("\nnative library: libprism-native.so ").contains("\njava:           ");
    assertThat(version.err()).isEmpty();

    Path index = work.resolve("runtime-index");
    Run built = run(repo, env, "prism-index", "--index-dir", index.toString(), "index", "--json");
    assertThat(built.exit()).as(built.toString()).isZero();
    assertThat(built.err()).as("no warning of a missing JDK module").isEmpty();
    assertThat(JSON.readTree(built.out()).path("chunksEmbedded").asInt()).isPositive();

    Run search = run(repo, env, "prism-index", "--index-dir", index.toString(), "search",
        "retry with backoff", "--json");
    assertThat(search.exit()).as(search.toString()).isZero();
    assertThat(search.err()).isEmpty();
    JsonNode first = JSON.readTree(search.out().lines().findFirst().orElseThrow());
    assertThat(first.path("mode").asText()).isEqualTo("hybrid");
    assertThat(first.path("path").asText()).isEqualTo("src/demo/Retry.java");
  }

  // --- helpers --------------------------------------------------------------------------------

  /** What a run printed and its exit code. */
  record Run(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /** Unpacks a .tar.gz with the system's tar into an empty directory; returns its top directory. */
  static Path unpack(Path archive, String dir) throws Exception {
    assertThat(archive).as("mvn package built the archive").isRegularFile();
    Path into = Files.createDirectories(work.resolve(dir));
    try (Stream<Path> before = Files.list(into)) {
      assertThat(before).isEmpty();
    }
    Process p = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", into.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES) && p.exitValue() == 0).as(out).isTrue();
    Path top = into.resolve(NAME);
    assertThat(top).isDirectory();
    return top;
  }

  /** A directory holding only a symlink {@code prism-index} to the unpacked launcher. */
  static Path link(Path unpacked, String dir) throws IOException {
    Path bin = Files.createDirectories(work.resolve(dir));
    Files.createSymbolicLink(bin.resolve("prism-index"), unpacked.resolve("bin/prism-index"));
    return bin;
  }

  /** A clean environment: HOME, a PATH of the symlink and the tools, no resident server. */
  static Map<String, String> env(Path bin) {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("PATH", bin + File.pathSeparator + tools);
    env.put("LANG", "C.UTF-8");
    env.put("PRISM_INDEX_SERVE", "0");
    return env;
  }

  static Run run(Path dir, Map<String, String> env, String... command) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(tools.resolve("env").toString(), "-i"));
    env.forEach((k, v) -> cmd.add(k + "=" + v));
    cmd.addAll(List.of(command));
    Path out = Files.createTempFile(work, "run", ".out");
    Path err = Files.createTempFile(work, "run", ".err");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process p = pb.start();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("finished: " + cmd).isTrue();
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  static void write(Path root, String rel, String content) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
  }

  static void git(Path repo, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.email=t@example.com", "-c",
        "user.name=t", "-c", "commit.gpgsign=false"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(repo.toFile()).redirectErrorStream(true);
    pb.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
    pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    Process p = pb.start();
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(out).isTrue();
  }

  static Path onPath(String command) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(d.isEmpty() ? "." : d, command);
      if (Files.isExecutable(p) && !Files.isDirectory(p)) {
        return p.toAbsolutePath();
      }
    }
    return null;
  }

  /** The version THIRD-PARTY.txt lists for {@code groupId:artifactId}. */
  static String version(String inventory, String artifact) {
    Matcher m = Pattern.compile(Pattern.quote(artifact) + ":([^ ]+) ").matcher(inventory);
    assertThat(m.find()).as(artifact).isTrue();
    return m.group(1);
  }
}
