package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.Target;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resident server's side of one connection ({@link ServeProtocol}) once {@link ConnectionGate}
 * has checked its token (in constant time) and said hello: one command line read within a byte
 * budget, refused unless it is a {@code search} or {@code status} for this server's index from a
 * client of the same code (or a {@code serve --stop}), else run through the CLI's pipeline with the
 * client's environment; the whole answer is collected, then sent with its exit code.
 */
final class ServeConnection {

  private static final Logger LOG = LoggerFactory.getLogger(ServeConnection.class);

  /** How long a client may take to send its request. */
  static final int READ_TIMEOUT_MS = 10_000;

  private final ResidentServer server;
  private final Target target;
  private final Environment env;
  private final Backend backend;
  private final ResidentServer.CommandRunner runner;

  /**
   * @param server the server (stopping state, stop requests, its code)
   * @param target the index this server answers for
   * @param env the server's environment (its model is lent to every request)
   * @param backend the warm backend the commands run on
   * @param runner the CLI's pipeline
   */
  ServeConnection(ResidentServer server, Target target, Environment env, Backend backend,
      ResidentServer.CommandRunner runner) {
    this.server = server;
    this.target = target;
    this.env = env;
    this.backend = backend;
    this.runner = runner;
  }

  /**
   * Answers one connection whose proof (magic and token) {@link ConnectionGate} has read and
   * answered with hello: reads the rest of the request within {@link #READ_TIMEOUT_MS} a read.
   */
  void answer(Socket socket) throws IOException {
    socket.setSoTimeout(READ_TIMEOUT_MS);
    InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    ServeProtocol.FieldReader fields = new ServeProtocol.FieldReader(in);
    String clientCode = fields.next();
    String home = fields.next();
    String cwd = fields.next();
    boolean stdoutTerminal = "1".equals(fields.next());
    boolean stderrTerminal = "1".equals(fields.next());
    Map<String, String> variables = new HashMap<>();
    for (int i = fields.count(); i > 0; i--) {
      String v = fields.next();
      int eq = v.indexOf('=');
      if (eq > 0 && ServeProtocol.VARIABLES.contains(v.substring(0, eq))) {
        variables.put(v.substring(0, eq), v.substring(eq + 1));
      }
    }
    String[] args = new String[fields.count()];
    for (int i = 0; i < args.length; i++) {
      args[i] = fields.next();
    }
    socket.setSoTimeout(0);
    String refusal;
    if (fields.exceeded()) {
      refusal = "the request is " + fields.used() + " bytes, more than this server's limit of "
          + ServeProtocol.MAX_REQUEST_BYTES + " bytes";
      LOG.warn("refused a request: {}", refusal);
    } else {
      refusal = refusal(clientCode, home, args);
    }
    if (refusal != null) {
      refuse(out, refusal);
      return;
    }
    ServeClient.Scan scan = ServeClient.scan(args);
    if (scan != null && scan.stop()) {
      byte[] said = ("prism-index serve: stopping the server of " + target.root() + " (pid "
          + ProcessHandle.current().pid() + ")\n").getBytes(StandardCharsets.UTF_8);
      out.write(ServeProtocol.line(ServeProtocol.ANSWER, 0, said.length, 0));
      out.write(said);
      out.flush();
      server.stopSoon("asked to stop");
      return;
    }
    Environment requestEnv = new Environment(Path.of(cwd), variables, stdoutTerminal,
        stderrTerminal, env.model());
    Capture capture = new Capture();
    PrintStream o = new PrintStream(capture.stdout(), false, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(capture.stderr(), true, StandardCharsets.UTF_8);
    int code = runner.run(args, o, e, requestEnv, backend);
    o.flush();
    e.flush();
    out.write(ServeProtocol.line(ServeProtocol.ANSWER, code, capture.errBefore.size(),
        capture.errAfter.size()));
    capture.errBefore.writeTo(out);
    capture.errAfter.writeTo(out);
    capture.out.writeTo(out);
    out.flush();
    // The client reads to the end of the stream: it has its whole answer now, before the next
    // request's preparation runs on this thread.
    socket.shutdownOutput();
    runner.prepare();
  }

  /** Answers {@code refused} with the reason instead of the command's answer. */
  static void refuse(OutputStream out, String why) throws IOException {
    byte[] reason = why.getBytes(StandardCharsets.UTF_8);
    out.write(ServeProtocol.line(ServeProtocol.REFUSED, 0, reason.length, 0));
    out.write(reason);
    out.flush();
  }

  private @Nullable String refusal(String clientCode, String home, String[] args) {
    if (server.isStopping()) {
      return "the server is stopping";
    }
    String stale = server.staleFor(clientCode);
    if (stale != null) {
      server.stopSoon(stale);
      return stale;
    }
    if (!Path.of(home).equals(target.home())) {
      return "this server answers for " + target.home();
    }
    ServeClient.Scan scan = ServeClient.scan(args);
    if (scan == null || scan.debug()) {
      return "only search, status (without --debug) and serve --stop are served";
    }
    return null;
  }

  /**
   * One command's output in memory: stdout, and stderr split at the first byte of stdout (so a
   * client prints them in about the order the command wrote them).
   */
  private static final class Capture {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream errBefore = new ByteArrayOutputStream();
    final ByteArrayOutputStream errAfter = new ByteArrayOutputStream();

    OutputStream stdout() {
      return new OutputStream() {
        @Override
        public void write(int b) {
          synchronized (Capture.this) {
            out.write(b);
          }
        }

        @Override
        public void write(byte[] b, int off, int len) {
          synchronized (Capture.this) {
            out.write(b, off, len);
          }
        }
      };
    }

    OutputStream stderr() {
      return new OutputStream() {
        @Override
        public void write(int b) {
          synchronized (Capture.this) {
            (out.size() == 0 ? errBefore : errAfter).write(b);
          }
        }

        @Override
        public void write(byte[] b, int off, int len) {
          synchronized (Capture.this) {
            (out.size() == 0 ? errBefore : errAfter).write(b, off, len);
          }
        }
      };
    }
  }
}
