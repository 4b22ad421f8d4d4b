package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Target;
import dev.prismindex.tool.SafeText;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The JVM client of the resident server ({@link ServeProtocol}; the launcher has its own, in bash,
 * that starts no JVM): {@code search} and {@code status} send their command line to a running
 * {@code prism-index serve} for the same index and print what it answers, byte for byte; when none
 * answers (none running, a dead one, another build, a connection lost before the end), the command
 * runs in this process as usual, and {@link ServerStarter} starts a server for the next one. The
 * caller can't tell the two apart from the output and the exit code. This class loads no engine,
 * Lucene or model class.
 */
public final class ServeClient {

  /**
   * How long a command waits for the server's hello before running in its own process. The server
   * says hello as soon as it has read the token ({@link ConnectionGate}), whatever its workers are
   * doing, so a server that says none within this is stalled (stopped, wedged), not busy.
   */
  static final int HELLO_TIMEOUT_MS = 2_000;

  private static final int CONNECT_TIMEOUT_MS = 2_000;

  private ServeClient() {}

  /**
   * What the light scan of the arguments found: a command a server may answer ({@code search},
   * {@code status}, or {@code serve --stop}), and its target.
   */
  record Scan(String command, List<String> repos, @Nullable String workspace,
      @Nullable String indexDir, boolean debug, boolean stop) {

    /** The target the command resolves to (see {@link Target#resolve}). */
    Target target(Environment env) throws CliFailure {
      return Target.resolve(repos, workspace, indexDir, env);
    }
  }

  /**
   * Runs the command on a resident server, if one answers for its index.
   *
   * @return the exit code, or empty when the command must run in this process
   */
  public static OptionalInt forward(String[] args, Environment env, PrintStream out,
      PrintStream err) {
    Scan scan = scan(args);
    if (scan == null || scan.stop()) {
      return OptionalInt.empty();
    }
    String mode = mode(env);
    if (off(mode)) {
      return OptionalInt.empty();
    }
    Target target;
    try {
      target = scan.target(env);
    } catch (CliFailure e) {
      return OptionalInt.empty(); // the in-process run reports it
    }
    String why;
    if (scan.debug()) {
      why = "--debug runs in this process";
    } else {
      try {
        Answer answer = ask(target, args, env, HELLO_TIMEOUT_MS, out, err);
        if (answer.exit() != null) {
          return OptionalInt.of(answer.exit());
        }
        why = answer.why();
        if (answer.stalled() && !mode.equals("require")) {
          err.println(SafeText.escapeField("prism-index: the resident server of " + target.home()
              + " did not answer (" + why + "); running the command in this process"));
          err.flush();
        }
      } catch (IOException | RuntimeException e) {
        why = "no answer (" + e + ")";
      }
    }
    if (scan.debug()) {
      Environment.debugLogging();
      org.slf4j.LoggerFactory.getLogger(ServeClient.class).debug(
          "resident server of {}: {}", target.home(), why);
    } else if (mode.equals("require")) {
      err.println(SafeText.escapeField("prism-index: no resident server answered for "
          + target.home() + ": " + why + " (" + ServeProtocol.MODE_VARIABLE + "=require)"));
      err.flush();
      return OptionalInt.of(ExitCode.FAILURE);
    }
    return OptionalInt.empty();
  }

  /**
   * {@code serve --stop}: asks the server of {@code target} to stop.
   *
   * @return what happened, one line for the user
   */
  public static String stop(Target target, Environment env) {
    try {
      ByteArrayOutputStream said = new ByteArrayOutputStream();
      PrintStream to = new PrintStream(said, true, StandardCharsets.UTF_8);
      // The server says it on stderr, as the command would.
      Answer a = ask(target, new String[] {"serve", "--stop"}, env, HELLO_TIMEOUT_MS, to, to);
      return a.exit() != null ? said.toString(StandardCharsets.UTF_8).strip()
          : "prism-index serve: no server answers for " + target.root() + " (" + a.why() + ")";
    } catch (IOException | RuntimeException e) {
      return "prism-index serve: no server answers for " + target.root() + " (" + e + ")";
    }
  }

  static String mode(Environment env) {
    String property = System.getProperty(ServeProtocol.MODE_PROPERTY);
    if (property != null && !property.isEmpty()) {
      return property;
    }
    String variable = env.variable(ServeProtocol.MODE_VARIABLE);
    return variable == null ? "auto" : variable;
  }

  static boolean off(String mode) {
    return mode.equals("0") || mode.equals("off");
  }

  /**
   * Scans the arguments the way picocli will parse them, far enough to know the command and the
   * target: null unless the command is {@code search} or {@code status} without help or version,
   * or {@code serve --stop}.
   */
  static @Nullable Scan scan(String[] args) {
    String command = null;
    List<String> repos = new ArrayList<>();
    String workspace = null;
    String indexDir = null;
    boolean debug = false;
    boolean stop = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        break;
      }
      if (a.equals("--repo") || a.equals("--index-dir") || a.equals("--workspace")) {
        if (i + 1 >= args.length) {
          return null;
        }
        if (a.equals("--repo")) {
          repos.add(args[++i]);
        } else if (a.equals("--workspace")) {
          workspace = args[++i];
        } else {
          indexDir = args[++i];
        }
      } else if (a.startsWith("--repo=")) {
        repos.add(a.substring("--repo=".length()));
      } else if (a.startsWith("--workspace=")) {
        workspace = a.substring("--workspace=".length());
      } else if (a.startsWith("--index-dir=")) {
        indexDir = a.substring("--index-dir=".length());
      } else if (a.equals("--debug")) {
        debug = true;
      } else if (a.equals("--stop") && "serve".equals(command)) {
        stop = true;
      } else if (a.equals("-h") || a.equals("--help") || a.equals("-V")
          || a.equals("--version")) {
        return null;
      } else if (command == null) {
        if (!a.equals("search") && !a.equals("status") && !a.equals("serve")) {
          return null;
        }
        command = a;
      }
    }
    if (command == null || command.equals("serve") && !stop) {
      return null;
    }
    return new Scan(command, repos, workspace, indexDir, debug, stop);
  }

  /**
   * The exit code of an answer the server gave (printed as it came), or why there is none
   * ({@code exit} null: nothing was printed).
   */
  record Answer(@Nullable Integer exit, String why, boolean stalled) {
    static Answer answered(int exit) {
      return new Answer(exit, "answered", false);
    }

    /** No answer, for a reason that is not a fault of a running server (none runs, a refusal). */
    static Answer none(String why) {
      return new Answer(null, why, false);
    }

    /** No answer from a server that runs but does not answer: the user is told. */
    static Answer stalled(String why) {
      return new Answer(null, why, true);
    }
  }

  /** Where a server listens and the secret it wants, as its port file says. */
  record Endpoint(int port, String token, long pid) {}

  /**
   * Reads the port file of the server of {@code home}, or says why there is none to trust: the
   * directory must be a real directory owned by this user and closed to everyone else (mode 0700,
   * as the server makes it), the file owned by this user.
   */
  static Endpoint endpoint(Path home) throws IOException {
    Path file = ServeProtocol.portFile(home);
    String problem = unsafe(file);
    if (problem != null) {
      throw new IOException(problem);
    }
    String[] words = Files.readString(file, StandardCharsets.US_ASCII).strip().split(" ");
    try {
      return new Endpoint(Integer.parseInt(words[0]), words[1], Long.parseLong(words[2]));
    } catch (RuntimeException e) {
      throw new IOException("unreadable " + file);
    }
  }

  /**
   * Sends one command line to the server of {@code target} and prints its answer as it comes
   * ({@link ServeProtocol}'s frames), as the command would have: stdout and stderr in the order
   * written; once stdout is closed, exit code 0 and nothing more (the command stops at its first
   * failed write). A connection lost before anything was printed leaves the command to this
   * process (an {@link IOException}); lost after, it is an error: said on {@code err}, exit code
   * {@link ExitCode#FAILURE}.
   *
   * @param helloTimeoutMs how long to wait for the server's hello (0: no limit); the answer that
   *     follows it is waited for without a limit
   */
  static Answer ask(Target target, String[] args, Environment env, int helloTimeoutMs,
      PrintStream out, PrintStream err) throws IOException {
    Endpoint at;
    try {
      at = endpoint(target.home());
    } catch (IOException e) {
      return Answer.none("no server (" + e.getMessage() + ")");
    }
    try (Socket socket = new Socket()) {
      try {
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), at.port()),
            CONNECT_TIMEOUT_MS);
      } catch (SocketTimeoutException e) {
        // A listening port whose backlog is full: its server accepts nothing.
        return Answer.stalled("no connection within " + CONNECT_TIMEOUT_MS + " ms: the server"
            + " (pid " + at.pid() + ") is stalled");
      } catch (IOException e) {
        return Answer.none("no server listening on port " + at.port() + " (" + e.getMessage()
            + ")");
      }
      socket.setTcpNoDelay(true);
      OutputStream request = new BufferedOutputStream(socket.getOutputStream(), 1 << 14);
      writeRequest(request, at.token(), target, env, args);
      request.flush();
      InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
      socket.setSoTimeout(helloTimeoutMs);
      String[] hello;
      try {
        hello = words(ServeProtocol.readLine(in));
      } catch (SocketTimeoutException e) {
        return Answer.stalled("no hello within " + helloTimeoutMs + " ms: the server (pid "
            + at.pid() + ") is stalled");
      }
      socket.setSoTimeout(0);
      boolean printed = false;
      try {
        String[] head = hello[0].equals(ServeProtocol.HELLO) ? words(ServeProtocol.readLine(in))
            : hello;
        if (head[0].equals(ServeProtocol.REFUSED) && head.length == 4) {
          byte[] reason = in.readNBytes(Integer.parseInt(head[2]));
          return Answer.none("refused: " + new String(reason, StandardCharsets.UTF_8));
        }
        while (true) {
          boolean end = head[0].equals(ServeProtocol.END);
          if (head.length != (end ? 3 : 2)) {
            throw new IOException("unexpected answer " + String.join(" ", head));
          }
          int n = Integer.parseInt(head[1]);
          if (end) {
            byte[] after = in.readNBytes(Integer.parseInt(head[2]));
            if (after.length != Integer.parseInt(head[2])) {
              throw new EOFException("the server closed the connection");
            }
            printed = true;
            if (!copy(in, out)) {
              return Answer.answered(ExitCode.OK);
            }
            err.write(after, 0, after.length);
            err.flush();
            return Answer.answered(n);
          }
          boolean stdout = head[0].equals(ServeProtocol.OUT);
          if (!stdout && !head[0].equals(ServeProtocol.ERR) || n < 0) {
            throw new IOException("unexpected answer " + String.join(" ", head));
          }
          byte[] frame = in.readNBytes(n);
          if (frame.length != n) {
            throw new EOFException("the server closed the connection");
          }
          printed = true;
          PrintStream to = stdout ? out : err;
          to.write(frame, 0, n);
          to.flush();
          if (stdout && out.checkError()) {
            return Answer.answered(ExitCode.OK);
          }
          head = words(ServeProtocol.readLine(in));
        }
      } catch (IOException | NumberFormatException e) {
        if (!printed) {
          throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        err.println(SafeText.escapeField("prism-index: the resident server of " + target.home()
            + " (pid " + at.pid() + ") broke off its answer (" + e.getMessage() + ")"));
        err.flush();
        return Answer.answered(ExitCode.FAILURE);
      }
    }
  }

  /**
   * Copies the rest of the answer to {@code out}.
   *
   * @return false when {@code out} was closed
   */
  private static boolean copy(InputStream in, PrintStream out) throws IOException {
    byte[] buffer = new byte[1 << 16];
    for (int n; (n = in.read(buffer)) > 0; ) {
      out.write(buffer, 0, n);
      if (out.checkError()) {
        return false;
      }
    }
    out.flush();
    return !out.checkError();
  }

  /** An answer line's words after the magic. */
  private static String[] words(String line) throws IOException {
    if (!line.startsWith(ServeProtocol.MAGIC + " ")) {
      throw new IOException("not a " + ServeProtocol.MAGIC + " server");
    }
    return line.substring(ServeProtocol.MAGIC.length() + 1).split(" ");
  }

  static void writeRequest(OutputStream out, String token, Target target, Environment env,
      String[] args) throws IOException {
    ServeProtocol.writeField(out, ServeProtocol.MAGIC);
    ServeProtocol.writeField(out, token);
    ServeProtocol.writeField(out, ServeProtocol.code().toString());
    ServeProtocol.writeField(out, target.home().toString());
    ServeProtocol.writeField(out, env.cwd().toString());
    ServeProtocol.writeField(out, env.stdoutTerminal() ? "1" : "0");
    ServeProtocol.writeField(out, env.stderrTerminal() ? "1" : "0");
    Map<String, String> sent = new TreeMap<>();
    for (String name : ServeProtocol.VARIABLES) {
      String value = env.variable(name);
      if (value != null) {
        sent.put(name, value);
      }
    }
    ServeProtocol.writeField(out, Integer.toString(sent.size()));
    for (Map.Entry<String, String> v : sent.entrySet()) {
      ServeProtocol.writeField(out, v.getKey() + "=" + v.getValue());
    }
    ServeProtocol.writeField(out, Integer.toString(args.length));
    for (String a : args) {
      ServeProtocol.writeField(out, a);
    }
  }

  /**
   * Why the port file must not be trusted, or null: its directory must be a real directory owned by
   * this user and closed to everyone else, the file a regular file owned by this user.
   */
  static @Nullable String unsafe(Path portFile) {
    Path dir = portFile.getParent();
    PosixFileAttributes a;
    PosixFileAttributes f;
    try {
      a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      f = Files.readAttributes(portFile, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      return "no port file";
    }
    if (!a.isDirectory()) {
      return dir + " is not a directory";
    }
    if (!ownedByThisUser(dir, a) || !ownedByThisUser(portFile, f) || !f.isRegularFile()) {
      return dir + " or its port file belongs to another user";
    }
    Set<PosixFilePermission> p = a.permissions();
    for (PosixFilePermission open : OPEN_TO_OTHERS) {
      if (p.contains(open)) {
        return dir + " is open to other users";
      }
    }
    return null;
  }

  /**
   * Whether this process's user owns the file: by user id where {@code /proc/self} tells it (its
   * owner is this process's user), else by name.
   */
  static boolean ownedByThisUser(Path file, PosixFileAttributes a) {
    try {
      Object self = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      Object owner = Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      return self.equals(owner);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return a.owner().getName().equals(System.getProperty("user.name"));
    }
  }

  static final Set<PosixFilePermission> OPEN_TO_OTHERS = Set.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
}
