package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Target;
import dev.prismindex.tool.SafeText;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
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
import org.jspecify.annotations.Nullable;

/**
 * The client side of the resident server: {@code search} and {@code status} in the one-shot JVM
 * send their command line to a running {@code prism-index serve} for the same index and print what
 * it answers, byte for byte; when none answers (none running, a stale socket, another version, a
 * connection lost before the end), the command runs in this process as usual. The caller can't tell
 * the two apart from the output and the exit code. This class loads no engine, Lucene or model
 * class, so a served command starts as fast as the JVM does.
 */
public final class ServeClient {

  /** How long a command waits for the server's hello before running in its own process. */
  static final long HELLO_TIMEOUT_MS = 10_000;

  private ServeClient() {}

  /** What the light scan of the arguments found: a command a server may answer, and its target. */
  record Scan(@Nullable String repo, @Nullable String indexDir, boolean debug) {}

  /**
   * Runs the command on a resident server, if one answers for its index.
   *
   * @return the exit code, or empty when the command must run in this process
   */
  public static OptionalInt forward(String[] args, Environment env, PrintStream out, PrintStream err) {
    Scan scan = scan(args);
    if (scan == null) {
      return OptionalInt.empty();
    }
    String mode = mode(env);
    if (mode.equals("0") || mode.equals("off")) {
      return OptionalInt.empty();
    }
    Target target;
    try {
      target = Target.resolve(scan.repo(), scan.indexDir(), env);
    } catch (CliFailure e) {
      return OptionalInt.empty(); // the in-process run reports it
    }
    String why;
    try {
      // Under --debug, only the handshake (to say what is there): the command runs here.
      // A server that does not even say hello in time (stopped, wedged, all its workers busy) is
      // passed over, unless it is required.
      Answer answer = ask(target, scan.debug() ? new String[0] : args, env,
          mode.equals("require") ? 0 : HELLO_TIMEOUT_MS);
      if (!scan.debug() && answer.exit() != null) {
        for (Frame f : answer.frames()) {
          PrintStream to = f.type() == ServeProtocol.STDOUT ? out : err;
          to.write(f.bytes(), 0, f.bytes().length);
          if (to == err) {
            err.flush();
          }
        }
        out.flush();
        return OptionalInt.of(out.checkError() ? ExitCode.OK : answer.exit());
      }
      why = answer.why();
    } catch (IOException | RuntimeException e) {
      why = "no answer (" + e + ")";
    }
    if (scan.debug()) {
      Environment.debugLogging();
      org.slf4j.LoggerFactory.getLogger(ServeClient.class).debug(
          "resident server at {}: {}; --debug runs in this process",
          ServeProtocol.socket(target.home()), why);
    } else if (mode.equals("require")) {
      err.println(SafeText.escapeField("prism-index: no resident server answered for "
          + target.home() + ": " + why + " (" + ServeProtocol.MODE_VARIABLE + "=require)"));
      err.flush();
      return OptionalInt.of(ExitCode.FAILURE);
    }
    return OptionalInt.empty();
  }

  private static String mode(Environment env) {
    String property = System.getProperty(ServeProtocol.MODE_PROPERTY);
    if (property != null && !property.isEmpty()) {
      return property;
    }
    String variable = env.variable(ServeProtocol.MODE_VARIABLE);
    return variable == null ? "auto" : variable;
  }

  /**
   * Scans the arguments the way picocli will parse them, far enough to know the command and the
   * target: null unless the command is {@code search} or {@code status} without help or version.
   */
  static @Nullable Scan scan(String[] args) {
    String command = null;
    String repo = null;
    String indexDir = null;
    boolean debug = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        break;
      }
      if (a.equals("--repo") || a.equals("--index-dir")) {
        if (i + 1 >= args.length) {
          return null;
        }
        if (a.equals("--repo")) {
          repo = args[++i];
        } else {
          indexDir = args[++i];
        }
      } else if (a.startsWith("--repo=")) {
        repo = a.substring("--repo=".length());
      } else if (a.startsWith("--index-dir=")) {
        indexDir = a.substring("--index-dir=".length());
      } else if (a.equals("--debug")) {
        debug = true;
      } else if (a.equals("-h") || a.equals("--help") || a.equals("-V")
          || a.equals("--version")) {
        return null;
      } else if (command == null) {
        if (!a.equals("search") && !a.equals("status")) {
          return null;
        }
        command = a;
      }
    }
    return command == null ? null : new Scan(repo, indexDir, debug);
  }

  record Frame(byte type, byte[] bytes) {}

  /** The server's whole answer (frames and exit code), or why there is none. */
  record Answer(List<Frame> frames, @Nullable Integer exit, String why) {}

  /**
   * Sends one command line to the server of {@code target} and collects its answer; prints
   * nothing, so that a connection lost midway leaves the command to this process. With no
   * arguments, only the handshake: the answer says whether a compatible server is there.
   *
   * @param helloTimeoutMs how long to wait for the server's hello before giving up (0: no limit)
   */
  static Answer ask(Target target, String[] args, Environment env, long helloTimeoutMs)
      throws IOException {
    Path socket = ServeProtocol.socket(target.home());
    String problem = unsafe(socket);
    if (problem != null) {
      return new Answer(List.of(), null, problem);
    }
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      DataOutputStream out = new DataOutputStream(
          new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 14));
      DataInputStream in = new DataInputStream(
          new BufferedInputStream(Channels.newInputStream(ch), 1 << 16));
      String refused = handshake(ch, socket, in, out, helloTimeoutMs);
      if (refused != null || args.length == 0) {
        return new Answer(List.of(), null, refused != null ? refused : "a server answers");
      }
      ServeProtocol.writeString(out, target.home().toString());
      ServeProtocol.writeString(out, env.cwd().toString());
      out.writeBoolean(env.stdoutTerminal());
      out.writeBoolean(env.stderrTerminal());
      out.writeInt(env.variables().size());
      for (Map.Entry<String, String> v : env.variables().entrySet()) {
        ServeProtocol.writeString(out, v.getKey());
        ServeProtocol.writeString(out, v.getValue());
      }
      out.writeInt(args.length);
      for (String a : args) {
        ServeProtocol.writeString(out, a);
      }
      out.flush();
      List<Frame> frames = new ArrayList<>();
      while (true) {
        byte type = in.readByte();
        switch (type) {
          case ServeProtocol.STDOUT, ServeProtocol.STDERR ->
              frames.add(new Frame(type, ServeProtocol.readBytes(in)));
          case ServeProtocol.EXIT -> {
            return new Answer(frames, in.readInt(), "answered");
          }
          case ServeProtocol.REFUSED -> {
            return new Answer(List.of(), null, "refused: " + ServeProtocol.readString(in));
          }
          default -> throw new IOException("unexpected frame " + type);
        }
      }
    }
  }

  /** Connects and exchanges hellos: null when a compatible server answers, else why not. */
  private static @Nullable String handshake(SocketChannel ch, Path socket, DataInputStream in,
      DataOutputStream out, long helloTimeoutMs) throws IOException {
    try {
      ch.connect(UnixDomainSocketAddress.of(socket));
    } catch (IOException e) {
      return "no server listening (" + e.getMessage() + ")";
    }
    ServeProtocol.writeHello(out);
    out.flush();
    if (helloTimeoutMs > 0 && !readable(ch, helloTimeoutMs)) {
      return "no hello within " + helloTimeoutMs + " ms (the server is busy or stuck)";
    }
    String other = ServeProtocol.readHello(in);
    return other == null ? null : "ignored: " + other;
  }

  /**
   * Waits until the channel has bytes to read, at most {@code ms}; leaves it in blocking mode.
   * (A blocking channel's reads have no timeout.)
   */
  private static boolean readable(SocketChannel ch, long ms) throws IOException {
    ch.configureBlocking(false);
    try (Selector selector = Selector.open()) {
      ch.register(selector, SelectionKey.OP_READ);
      return selector.select(ms) > 0;
    } finally {
      ch.configureBlocking(true);
    }
  }

  /**
   * Why the socket must not be trusted, or null: its directory must be a real directory owned by
   * this user and closed to everyone else (mode 0700), as the server makes it.
   */
  static @Nullable String unsafe(Path socket) {
    if (socket.toString().getBytes(StandardCharsets.UTF_8).length
        > ServeProtocol.MAX_SOCKET_PATH_BYTES) {
      return "socket path too long for a Unix domain socket";
    }
    Path dir = socket.getParent();
    PosixFileAttributes a;
    try {
      a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      return "no server directory";
    }
    if (!a.isDirectory()) {
      return dir + " is not a directory";
    }
    if (!ownedByThisUser(dir, a)) {
      return dir + " belongs to " + a.owner().getName();
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
