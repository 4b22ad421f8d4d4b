package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.Target;
import dev.prismindex.engine.HybridIndex;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
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
   * JVM options of a background server: the serial collector and a heap that gives memory back
   * once a burst of work is over (an idle server stays small), JVM messages on stderr (the log).
   */
  static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-Xss1m",
      "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30", "-XX:+DisplayVMOutputToStderr",
      "-Xlog:disable", "-Xlog:all=warning:stderr");

  private ServerStarter() {}

  /**
   * Starts a server for the command's target when that is useful (see the class comment); never
   * fails the command (a failure to start is logged at debug level).
   */
  public static void startIfUseful(String[] args, Environment env) {
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
      if (target.workspace() ? target.members().stream().anyMatch(
          m -> HybridIndex.exists(m.target().home())) : HybridIndex.exists(target.home())) {
        start(target);
      }
    } catch (CliFailure | IOException | RuntimeException e) {
      LOG.debug("could not start a resident server: {}", e.toString());
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
    ProcessBuilder pb = new ProcessBuilder(command)
        .directory(target.root().toFile())
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
