package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real launcher ({@code scripts/prism-index}) and the shaded jar of this build, for the
 * end-to-end tests ({@code *IT}, run by failsafe after {@code package}): one place that finds them,
 * starts the launcher with a clean environment and collects what it printed, plus the fixture
 * helpers (files, a git repository) those tests share.
 */
public final class Launcher {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The project root (where {@code scripts/} is). */
  public final Path project;
  /** {@code scripts/prism-index}. */
  public final Path script;
  /** The shaded jar {@code mvn package} built. */
  public final Path jar;
  private final boolean pinJar;

  private Launcher(Path project, Path jar, boolean pinJar) {
    this.project = project;
    this.script = project.resolve("scripts/prism-index");
    this.jar = jar;
    this.pinJar = pinJar;
  }

  /**
   * The launcher of this build, pointed at its jar ({@code PRISM_INDEX_JAR}); fails the test when
   * {@code package} has not built the jar.
   */
  public static Launcher ofThisBuild() {
    Path project = Path.of(System.getProperty("prism.project.root", "..")).toAbsolutePath()
        .normalize();
    Path jar = Path.of(System.getProperty("prism.cli.jar", "target/prism-index.jar"))
        .toAbsolutePath();
    assertThat(jar).as("mvn package builds the jar before the integration tests").isRegularFile();
    return new Launcher(project, jar, true);
  }

  /** The same launcher left to find its jar itself (no {@code PRISM_INDEX_JAR}). */
  public Launcher findingItsJar() {
    return new Launcher(project, jar, false);
  }

  /**
   * A process running {@code cmd} in {@code dir} without the caller's {@code PRISM_INDEX_DIR} and
   * {@code PRISM_INDEX_JAVA_OPTS}, with {@code PRISM_INDEX_JAR} pointing at the jar (or removed, see
   * {@link #findingItsJar()}), and with {@code PRISM_INDEX_SERVE=0}: a search or status through
   * the launcher would otherwise start a resident server in the background, which outlives the
   * test. A test of serving sets another value and stops what it started ({@link #stopServers}).
   */
  public ProcessBuilder command(Path dir, List<String> cmd) {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().remove("PRISM_INDEX_DIR");
    pb.environment().remove("PRISM_INDEX_JAVA_OPTS");
    pb.environment().put("PRISM_INDEX_SERVE", "0");
    if (pinJar) {
      pb.environment().put("PRISM_INDEX_JAR", jar.toString());
    } else {
      pb.environment().remove("PRISM_INDEX_JAR");
    }
    return pb;
  }

  /** {@link #command} running the launcher with {@code args}. */
  public ProcessBuilder launcher(Path dir, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(script.toString());
    cmd.addAll(List.of(args));
    return command(dir, cmd);
  }

  /** Runs the launcher with {@code args} in {@code dir} to the end (see {@link #run}). */
  public Run launch(Path dir, String... args) throws Exception {
    return run(launcher(dir, args));
  }

  /**
   * Starts the process with stdin from {@code /dev/null}, waits for it (at most five minutes) and
   * returns its exit code and output.
   */
  public static Run run(ProcessBuilder pb) throws Exception {
    Path out = Files.createTempFile("launcher", ".out");
    Path err = Files.createTempFile("launcher", ".err");
    try {
      pb.redirectOutput(out.toFile());
      pb.redirectError(err.toFile());
      pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      Process p = pb.start();
      assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("launcher finished").isTrue();
      return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * The processes of this machine whose command line names {@code home} (a resident server of that
   * index started in the background names it with {@code --index-dir}).
   */
  public static List<ProcessHandle> serversOf(Path home) {
    String h = home.toString();
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != ProcessHandle.current().pid())
        .filter(p -> p.info().arguments().map(a -> List.of(a).contains(h)).orElse(false))
        .toList();
  }

  /**
   * Stops every resident server of the index {@code home} of {@code repo}, so that no JVM outlives
   * the test: {@code prism-index serve --stop} through the launcher, then, by pid, whatever
   * process still names the index on its command line (a server that did not answer, or one
   * started in the background that waits for the lock), first with SIGTERM, then SIGKILL.
   */
  public void stopServers(Path repo, Path home) throws Exception {
    if (Files.isDirectory(repo)) {
      run(launcher(repo, "--repo", repo.toString(), "--index-dir", home.toString(), "serve",
          "--stop"));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    List<ProcessHandle> left = serversOf(home);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
      left = serversOf(home);
    }
    for (ProcessHandle p : left) {
      p.destroy();
    }
    for (ProcessHandle p : left) {
      try {
        p.onExit().get(10, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        p.destroyForcibly();
        p.onExit().get(30, TimeUnit.SECONDS);
      }
    }
  }

  /** What a run printed and its exit code. */
  public record Run(int exit, String out, String err) {
    /** Stdout as NDJSON, one node per non-empty line. */
    public List<JsonNode> json() throws IOException {
      List<JsonNode> nodes = new ArrayList<>();
      for (String line : out.split("\n")) {
        if (!line.isEmpty()) {
          nodes.add(JSON.readTree(line));
        }
      }
      return nodes;
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /** Writes a UTF-8 file below {@code root}, creating its directories. */
  public static Path write(Path root, String rel, String content) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
    return p;
  }

  /** Runs git in {@code repo} with a neutral configuration; fails the test when git fails. */
  public static void git(Path repo, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.email=t@example.com", "-c",
        "user.name=t", "-c", "commit.gpgsign=false"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(repo.toFile()).redirectErrorStream(true);
    pb.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
    pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(out).isTrue();
  }

  /** Commits everything in {@code repo} as a new git repository (init, add, commit). */
  public static void commitAll(Path repo) throws Exception {
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "fixture");
  }
}
