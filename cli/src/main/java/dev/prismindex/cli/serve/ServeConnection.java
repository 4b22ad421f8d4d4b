package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.Target;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resident server's side of one connection ({@link ServeProtocol}) once {@link ConnectionGate}
 * has checked its token (in constant time) and said hello: one command line read within a byte
 * budget, refused unless it is a {@code search} or {@code status} for this server's index from a
 * client of the same code (or a {@code serve --stop}), else run through the CLI's pipeline with the
 * client's environment. The answer is streamed ({@link Stream}): stdout goes out in frames while the
 * command runs (an exact search's hits as they are found), stderr as it is written, the exit code
 * at the end.
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
    // Frames are flushed as they are made: no wait for the client's (delayed) acknowledgement.
    socket.setTcpNoDelay(true);
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
      out.write(ServeProtocol.line(ServeProtocol.ERR, said.length));
      out.write(said);
      out.write(ServeProtocol.line(ServeProtocol.END, 0, 0));
      out.flush();
      server.stopSoon("asked to stop");
      return;
    }
    Environment requestEnv = new Environment(Path.of(cwd), variables, stdoutTerminal,
        stderrTerminal, env.model());
    Stream stream = new Stream(out);
    PrintStream o = new PrintStream(stream.stdout(), false, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(stream.stderr(), true, StandardCharsets.UTF_8);
    int code = runner.run(args, o, e, requestEnv, backend);
    o.flush();
    e.flush();
    if (!stream.end(code)) {
      // The client went away (its stdout closed): the command stopped at its first failed write.
      return;
    }
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
   * One command's answer on its way to the client ({@link ServeProtocol}): stdout is kept until
   * {@link #CHUNK} bytes are pending, or {@link #LINGER_NANOS} after the first of them when more is
   * written, then sent as an {@code out} frame; stderr is sent at once as an {@code err} frame
   * when no stdout is pending, else kept with it and sent after it (so the client prints both in
   * the order they were written); {@link #end} sends {@code end EXIT N}, the N bytes of stderr
   * written after the stdout still pending, then that stdout, which the client copies until the
   * connection closes, and prints those N bytes after it: a small answer is one write. Once a write to the client fails, every later one fails too: the
   * command's printers see their stream's error and stop, as they do when a reader closes stdout.
   *
   * <p>Pending stdout is held in a buffer of {@link #CHUNK} bytes taken from a small pool and
   * given back at {@link #end}: a long answer allocates nothing for it (a buffer grown by doubling
   * lived across young collections, and its copies, promoted, filled the small old generation of a
   * server's heap: about one full collection per 17 000-line answer).
   */
  static final class Stream {
    /** Pending stdout sent as a frame once this large. */
    static final int CHUNK = 1 << 20;

    /** The most buffers kept for the next answers (one per worker answering at once). */
    private static final int POOLED = 4;

    private static final ConcurrentLinkedQueue<byte[]> POOL =
        new ConcurrentLinkedQueue<>();

    private static final AtomicInteger POOL_SIZE =
        new AtomicInteger();

    /** Pending stdout is sent at the next write once the first of it waited this long. */
    static final long LINGER_NANOS = 200_000_000L;

    private final OutputStream client;
    /** Stdout not sent yet: {@code count} bytes of a pooled buffer (none before the first). */
    private byte @Nullable [] pending;
    private int count;
    /** Stderr written after the pending stdout: sent after it. */
    private final java.io.ByteArrayOutputStream trailing = new java.io.ByteArrayOutputStream();
    private long since;
    private boolean broken;

    Stream(OutputStream client) {
      this.client = client;
    }

    /** The command's stdout; flushing it sends nothing (the printers flush every line). */
    OutputStream stdout() {
      return new Channel(this::out);
    }

    /** The command's stderr. */
    OutputStream stderr() {
      return new Channel(this::err);
    }

    /** Where one of the command's streams writes its bytes. */
    @FunctionalInterface
    private interface Writes {
      void write(byte[] b, int off, int len) throws IOException;
    }

    /** One of the command's streams: every write goes to {@code writes}. */
    private static final class Channel extends OutputStream {
      private final Writes writes;

      Channel(Writes writes) {
        this.writes = writes;
      }

      @Override
      public void write(int b) throws IOException {
        writes.write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        writes.write(b, off, len);
      }
    }

    private synchronized void out(byte[] b, int off, int len) throws IOException {
      check();
      if (trailing.size() > 0) {
        send();
      }
      byte[] buffer = pending;
      if (buffer == null) {
        buffer = take();
        pending = buffer;
      }
      if (count == 0) {
        since = System.nanoTime();
      }
      while (len > 0) {
        int n = Math.min(len, buffer.length - count);
        System.arraycopy(b, off, buffer, count, n);
        count += n;
        off += n;
        len -= n;
        if (count == buffer.length) {
          send();
          flush();
          since = System.nanoTime();
        }
      }
      if (count > 0 && System.nanoTime() - since >= LINGER_NANOS) {
        send();
        flush();
      }
    }

    private static byte[] take() {
      byte[] b = POOL.poll();
      if (b == null) {
        return new byte[CHUNK];
      }
      POOL_SIZE.decrementAndGet();
      return b;
    }

    /** Gives the buffer back to the pool once the answer is done with it. */
    private void release() {
      byte[] b = pending;
      pending = null;
      count = 0;
      if (b != null && POOL_SIZE.incrementAndGet() <= POOLED) {
        POOL.offer(b);
      } else if (b != null) {
        POOL_SIZE.decrementAndGet();
      }
    }

    private synchronized void err(byte[] b, int off, int len) throws IOException {
      check();
      if (count > 0) {
        trailing.write(b, off, len);
        return;
      }
      try {
        client.write(ServeProtocol.line(ServeProtocol.ERR, len));
        client.write(b, off, len);
      } catch (IOException e) {
        broken = true;
        throw e;
      }
      flush();
    }

    /**
     * Ends the answer with the exit code and the stdout still pending.
     *
     * @return false when the client went away before
     */
    synchronized boolean end(int code) {
      if (broken) {
        release();
        return false;
      }
      try {
        client.write(ServeProtocol.line(ServeProtocol.END, code, trailing.size()));
        trailing.writeTo(client);
        trailing.reset();
        if (pending != null) {
          client.write(pending, 0, count);
        }
        count = 0;
        client.flush();
        return true;
      } catch (IOException e) {
        broken = true;
        return false;
      } finally {
        release();
      }
    }

    private void check() throws IOException {
      if (broken) {
        throw new IOException("the client went away");
      }
    }

    /** Sends the pending stdout as a frame, and the stderr written after it. */
    private void send() throws IOException {
      if (count == 0) {
        return;
      }
      byte[] buffer = Objects.requireNonNull(pending);
      try {
        client.write(ServeProtocol.line(ServeProtocol.OUT, count));
        client.write(buffer, 0, count);
        if (trailing.size() > 0) {
          client.write(ServeProtocol.line(ServeProtocol.ERR, trailing.size()));
          trailing.writeTo(client);
          trailing.reset();
        }
      } catch (IOException e) {
        broken = true;
        throw e;
      }
      count = 0;
    }

    private void flush() throws IOException {
      try {
        client.flush();
      } catch (IOException e) {
        broken = true;
        throw e;
      }
    }
  }
}
