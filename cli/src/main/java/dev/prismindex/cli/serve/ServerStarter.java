package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.Target;
import dev.prismindex.engine.HybridIndex;
import java.io.File;
import dev.prismindex.cli.command.Requests;
import dev.prismindex.tool.SafeText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a resident server in the background after a {@code search} or {@code status} that no
 * server answered, so the next one is answered warm: a detached process ({@code setsid} when the
 * system has it; stdin from {@code /dev/null}, output appended to {@code <home>/serve/serve.log})
 * running {@code prism-index serve --background} with the default idle timeout. Nothing is started
 * when {@code PRISM_INDEX_SERVE} is {@code 0}, {@code off} or {@code require}, under
 * {@code --debug}, or when the target has no index yet.
 */
public final class ServerStarter {

  private static final Logger LOG = LoggerFactory.getLogger(ServerStarter.class);

  /** A log larger than this is moved to {@code serve.log.1} before a server starts. */
  static final long MAX_LOG_BYTES = 1 << 20;

  /**
   * JVM options of a background server: the serial collector, a heap that starts at 8 MB (the
   * JVM's default starts at 1/64 of the machine's memory, and the young generation, a third of
   * it, is all touched by the first searches: 114 MB of RSS on a 24 GB machine) and grows with the
   * work, and gives memory back at the full collection the server runs when it falls quiet
   * ({@link ResidentServer}: at once to the live set plus 30 %, not in steps); JVM messages on
   * stderr (the log).
   */
  static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-Xss1m", "-Xms8m",
      "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30", "-XX:-ShrinkHeapInSteps",
      "-XX:+DisplayVMOutputToStderr", "-Xlog:disable", "-Xlog:all=warning:stderr");

  /**
   * The C library's allocator settings of a background server: allocations of 64 KiB and more
   * are mapped on their own and unmapped when freed, so what the embedding model frees when the
   * server releases it goes back to the system (with glibc's defaults the threshold rises with
   * the first large block freed, and the freed model stayed in the heap: a process that loaded,
   * used and released the model three times held 148 MB, against 86 MB with these settings).
   */
  static final Map<String, String> MALLOC = Map.of("MALLOC_MMAP_THRESHOLD_", "65536",
      "MALLOC_TRIM_THRESHOLD_", "65536");

  private ServerStarter() {}

  /**
   * Starts a server for the command's target when that is useful (see the class comment); never
   * fails the command (a failure to start is logged at debug level). When it starts one and
   * stderr is a terminal, says so in one line on {@code err} (a person learns of the background
   * process; an agent's captured stderr stays the same as when a server answers).
   */
  public static void startIfUseful(String[] args, Environment env, PrintStream err) {
    ServeClient.Scan scan = ServeClient.scan(args);
    if (scan == null || scan.stop() || scan.debug()) {
      return;
    }
    String mode = ServeClient.mode(env);
    if (ServeClient.off(mode) || mode.equals("require")) {
      return;
    }
    try {
      Target target = scan.target(env);
      if (target.workspace() && target.workspaceFile() == null) {
        // A list of --repo is answered by the server of its first repository.
        target = target.members().get(0).target();
      }
      if ((target.workspace() ? target.members().stream().anyMatch(
          m -> HybridIndex.exists(m.target().home())) : HybridIndex.exists(target.home()))
          && !running(target)) {
        start(target);
        if (env.stderrTerminal()) {
          err.println(SafeText.escapeField(startLine(target)));
          err.flush();
        }
      }
    } catch (CliFailure | IOException | RuntimeException e) {
      LOG.debug("could not start a resident server: {}", e.toString());
    }
  }

  /** The line that says a server was started in the background. */
  static String startLine(Target target) {
    return "prism-index: started a resident server for " + target.root() + " in the background"
        + " (it answers the next searches and stops after "
        + Requests.formatDuration(Requests.DEFAULT_IDLE_TIMEOUT) + " idle; prism-index serve"
        + " --list, --stop; PRISM_INDEX_SERVE=0 for none)";
  }

  /**
   * Whether a server already holds the target's lock (one that is starting, or did not answer in
   * time): then starting another is pointless, and saying so would be wrong.
   */
  private static boolean running(Target target) {
    Path lock = ServeProtocol.dir(target.home()).resolve(ServeProtocol.LOCK);
    if (!Files.exists(lock, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE)) {
      FileLock held = channel.tryLock();
      if (held == null) {
        return true;
      }
      held.release();
      return false;
    } catch (IOException | OverlappingFileLockException e) {
      return true;
    }
  }

  /**
   * Starts {@code serve --background} for {@code target} (one repository, or a workspace file's
   * workspace), detached; does not wait for it.
   */
  static Process start(Target target) throws IOException {
    Path dir = ServeProtocol.dir(target.home());
    Files.createDirectories(dir);
    Path log = dir.resolve(ServeProtocol.LOG);
    if (Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS) && Files.size(log) > MAX_LOG_BYTES) {
      Files.move(log, dir.resolve(ServeProtocol.LOG + ".1"), StandardCopyOption.REPLACE_EXISTING);
    }
    List<String> command = new ArrayList<>();
    String setsid = onPath("setsid");
    if (setsid != null) {
      command.add(setsid);
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_OPTIONS);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("dev.prismindex.cli.Main");
    Path file = target.workspaceFile();
    command.addAll(file != null ? List.of("--workspace", file.toString(), "serve", "--background")
        : List.of("--repo", target.root().toString(), "--index-dir", target.home().toString(),
            "serve", "--background"));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(MALLOC);
    pb.directory(target.root().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectErrorStream(true);
    Process p = pb.start();
    LOG.debug("started a resident server for {} (pid {}), logging to {}", target.root(), p.pid(),
        log);
    return p;
  }

  /** The executable {@code name} on {@code PATH}, or null. */
  private static @Nullable String onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String d : path.split(File.pathSeparator)) {
      if (d.isEmpty()) {
        continue;
      }
      Path p = Path.of(d, name);
      if (Files.isExecutable(p) && Files.isRegularFile(p)) {
        return p.toString();
      }
    }
    return null;
  }
}
