package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.Target;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resident server's side of one connection ({@link ServeProtocol}): the handshake, one command
 * line read within a byte budget, refused unless it is a {@code search} or {@code status} for this
 * server's index, else run through the CLI's pipeline with the client's environment, its stdout and
 * stderr streamed back in frames, then the exit code.
 */
final class ServeConnection {

  private static final Logger LOG = LoggerFactory.getLogger(ServeConnection.class);

  /** The most environment variables or arguments a request may carry. */
  private static final int MAX_ITEMS = 100_000;

  private final Target target;
  private final Environment env;
  private final Backend backend;
  private final ResidentServer.CommandRunner runner;
  private final BooleanSupplier stopping;

  /**
   * @param target the index this server answers for
   * @param env the server's environment (its model is lent to every request)
   * @param backend the warm backend the commands run on
   * @param runner the CLI's pipeline
   * @param stopping whether the server is stopping (new commands are refused)
   */
  ServeConnection(Target target, Environment env, Backend backend,
      ResidentServer.CommandRunner runner, BooleanSupplier stopping) {
    this.target = target;
    this.env = env;
    this.backend = backend;
    this.runner = runner;
    this.stopping = stopping;
  }

  /** Answers one connection: handshake, one command line, its output and exit code. */
  void answer(SocketChannel ch) throws IOException {
    DataInputStream in = new DataInputStream(
        new BufferedInputStream(Channels.newInputStream(ch), 1 << 16));
    DataOutputStream out = new DataOutputStream(
        new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16));
    String other = ServeProtocol.readHello(in);
    ServeProtocol.writeHello(out);
    out.flush();
    if (other != null) {
      LOG.debug("a client was turned away: {}", other);
      return;
    }
    // Read within a budget: a huge request is read past, not kept, and refused.
    ServeProtocol.Budget budget = new ServeProtocol.Budget(ServeProtocol.MAX_REQUEST_BYTES);
    String homeName = ServeProtocol.readString(in, budget);
    String cwdName = ServeProtocol.readString(in, budget);
    boolean stdoutTerminal = in.readBoolean();
    boolean stderrTerminal = in.readBoolean();
    int n = ServeProtocol.readCount(in, MAX_ITEMS);
    Map<String, String> variables = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String name = ServeProtocol.readString(in, budget);
      variables.put(name, ServeProtocol.readString(in, budget));
    }
    String[] args = new String[ServeProtocol.readCount(in, MAX_ITEMS)];
    for (int i = 0; i < args.length; i++) {
      args[i] = ServeProtocol.readString(in, budget);
    }
    String refusal;
    if (budget.exceeded()) {
      refusal = "the request is " + budget.used() + " bytes, more than this server's limit of "
          + ServeProtocol.MAX_REQUEST_BYTES + " bytes";
      LOG.warn("refused a request: {}", refusal);
    } else {
      refusal = refusal(Path.of(homeName), args);
    }
    if (refusal != null) {
      out.writeByte(ServeProtocol.REFUSED);
      ServeProtocol.writeString(out, refusal);
      out.flush();
      return;
    }
    Environment requestEnv = new Environment(Path.of(cwdName), variables, stdoutTerminal,
        stderrTerminal, env.model());
    PrintStream o = new PrintStream(new BufferedOutputStream(
        new FrameOutput(ServeProtocol.STDOUT, out), 1 << 16), false, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(new FrameOutput(ServeProtocol.STDERR, out), true,
        StandardCharsets.UTF_8);
    int code = runner.run(args, o, e, requestEnv, backend);
    o.flush();
    e.flush();
    out.writeByte(ServeProtocol.EXIT);
    out.writeInt(code);
    out.flush();
  }

  private @Nullable String refusal(Path home, String[] args) {
    if (stopping.getAsBoolean()) {
      return "the server is stopping";
    }
    if (!home.equals(target.home())) {
      return "this server answers for " + target.home();
    }
    ServeClient.Scan scan = ServeClient.scan(args);
    if (scan == null || scan.debug()) {
      return "only search and status (without --debug) are served";
    }
    return null;
  }

  /** Frames what is written as chunks of one stream on the connection. */
  private static final class FrameOutput extends OutputStream {
    private final byte type;
    private final DataOutputStream out;

    FrameOutput(byte type, DataOutputStream out) {
      this.type = type;
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return;
      }
      synchronized (out) {
        out.writeByte(type);
        out.writeInt(len);
        out.write(b, off, len);
      }
    }

    @Override
    public void flush() throws IOException {
      synchronized (out) {
        out.flush();
      }
    }
  }
}
