package dev.prismindex.cli.serve;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resident server's door: one thread and a {@link Selector} accept every connection and read
 * its proof (the request's first two fields, {@link ServeProtocol#MAGIC} and the token) without
 * blocking, so no connection holds a worker before it has proved the token. A connection has
 * {@value #PROOF_BUDGET_MS} ms in all from its accept to send the proof (a total deadline, not one
 * per byte); at most {@value #MAX_UNPROVEN} connections wait for theirs at a time, and one more
 * closes the one that has waited longest. A wrong magic or token is refused at once. A proven
 * connection is answered {@link ServeProtocol#HELLO} by this thread and handed over, back in
 * blocking mode, to the workers, which read the rest of the request. Strangers on the machine can
 * therefore neither occupy a worker nor hold a connection for more than the budget, and the owner's
 * clients, whose proof arrives with their connection, are let in within a round of the selector.
 */
final class ConnectionGate implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionGate.class);

  /** How long a connection may take, from its accept, to prove the token. */
  static final long PROOF_BUDGET_MS = 1_000;

  /**
   * The most connections waiting to prove the token; one more closes the oldest. Generous, so that
   * even strangers reconnecting as fast as this thread can accept leave every connection tens of
   * milliseconds to send its proof, which a client sends with its connection.
   */
  static final int MAX_UNPROVEN = 512;

  /** The most connections accepted in one round of the selector. */
  private static final int ACCEPTS_PER_ROUND = 64;

  private final ServerSocketChannel listener;
  private final Selector selector;
  private final byte[] proof;
  private final Consumer<SocketChannel> proven;
  /** Connections waiting for their proof, oldest (nearest deadline) first; this thread's own. */
  private final LinkedHashSet<Waiting> waiting = new LinkedHashSet<>();
  private volatile boolean closed;

  /** A connection reading its proof. */
  private static final class Waiting {
    final SocketChannel channel;
    final long deadline;
    final ByteBuffer read;
    SelectionKey key;

    Waiting(SocketChannel channel, long deadline, int proofLength) {
      this.channel = channel;
      this.deadline = deadline;
      this.read = ByteBuffer.allocate(proofLength);
    }
  }

  /**
   * @param listener the server's listening channel (made non-blocking here)
   * @param token the secret every connection must send after the magic
   * @param proven takes each proven connection (blocking mode, hello sent); it owns the channel
   */
  ConnectionGate(ServerSocketChannel listener, String token, Consumer<SocketChannel> proven)
      throws IOException {
    this.listener = listener;
    this.proven = proven;
    byte[] magic = ServeProtocol.MAGIC.getBytes(StandardCharsets.US_ASCII);
    byte[] secret = token.getBytes(StandardCharsets.US_ASCII);
    this.proof = new byte[magic.length + 1 + secret.length + 1];
    System.arraycopy(magic, 0, proof, 0, magic.length);
    System.arraycopy(secret, 0, proof, magic.length + 1, secret.length);
    this.selector = Selector.open();
    listener.configureBlocking(false);
    listener.register(selector, SelectionKey.OP_ACCEPT);
  }

  /** Stops the loop; it closes the connections still waiting and the selector. */
  void close() {
    closed = true;
    selector.wakeup();
  }

  @Override
  public void run() {
    try {
      while (!closed) {
        long wait = nextDeadline() - System.nanoTime();
        selector.select(waiting.isEmpty() ? 0 : Math.max(1, wait / 1_000_000 + 1));
        List<Waiting> through = new ArrayList<>();
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (!key.isValid()) {
            continue;
          }
          if (key.isAcceptable()) {
            accept(through);
          } else if (key.isReadable()) {
            read((Waiting) key.attachment(), through);
          }
        }
        expire();
        if (!through.isEmpty()) {
          selector.selectNow(); // deregisters the cancelled keys: the channels may block again
          for (Waiting w : through) {
            handOver(w);
          }
        }
      }
    } catch (IOException | RuntimeException e) { // ClosedSelectorException: closed
      if (!closed) {
        LOG.warn("the server stopped accepting connections: {}", e.toString());
      }
    } finally {
      for (Waiting w : waiting) {
        closeQuietly(w.channel);
      }
      waiting.clear();
      try {
        selector.close();
      } catch (IOException e) {
        LOG.debug("closing the selector failed", e);
      }
    }
  }

  private long nextDeadline() {
    return waiting.isEmpty() ? Long.MAX_VALUE : waiting.iterator().next().deadline;
  }

  /**
   * Accepts the pending connections, at most {@value #ACCEPTS_PER_ROUND} (a flood must not keep
   * this thread from the connections it has), and reads what each has sent already.
   */
  private void accept(List<Waiting> through) {
    for (int i = 0; i < ACCEPTS_PER_ROUND; i++) {
      SocketChannel channel;
      try {
        channel = listener.accept();
      } catch (IOException e) {
        // Out of file descriptors, most likely: the oldest waiting connection gives its own up.
        if (!closed) {
          LOG.warn("accepting a connection failed: {}", e.toString());
          if (!waiting.isEmpty()) {
            drop(waiting.iterator().next());
          }
        }
        return;
      }
      if (channel == null) {
        return;
      }
      Waiting w = new Waiting(channel, System.nanoTime() + PROOF_BUDGET_MS * 1_000_000,
          proof.length);
      try {
        channel.configureBlocking(false);
        channel.socket().setTcpNoDelay(true);
        if (waiting.size() >= MAX_UNPROVEN) {
          drop(waiting.iterator().next());
          LOG.debug("closed a connection that had not proved the token: {} waited", MAX_UNPROVEN);
        }
        waiting.add(w);
        w.key = channel.register(selector, SelectionKey.OP_READ, w);
      } catch (IOException e) {
        drop(w);
        continue;
      }
      // A client sends its request as soon as it is connected: usually already here.
      read(w, through);
    }
  }

  /**
   * Reads what the connection has sent of its proof: complete and right, it goes {@code through};
   * a wrong byte of the magic, or a wrong token, is refused; the end of the stream is dropped.
   */
  private void read(Waiting w, List<Waiting> through) {
    int before = w.read.position();
    int n;
    try {
      n = w.channel.read(w.read);
    } catch (IOException e) {
      drop(w);
      return;
    }
    if (n < 0) {
      drop(w);
      return;
    }
    int magic = ServeProtocol.MAGIC.length() + 1; // the magic and its terminator
    for (int i = before; i < Math.min(w.read.position(), magic); i++) {
      if (w.read.get(i) != proof[i]) {
        refuse(w, "not a " + ServeProtocol.MAGIC + " client");
        return;
      }
    }
    for (int i = Math.max(before, magic); i < w.read.position() - 1; i++) {
      if (w.read.get(i) == 0) { // the token field ended early: a wrong token
        refuse(w, "wrong token");
        return;
      }
    }
    if (w.read.hasRemaining()) {
      return;
    }
    if (!MessageDigest.isEqual(w.read.array(), proof)) {
      refuse(w, "wrong token");
      return;
    }
    waiting.remove(w);
    w.key.cancel();
    through.add(w);
  }

  /** Says hello and hands a proven connection, back in blocking mode, to the workers. */
  private void handOver(Waiting w) {
    try {
      w.channel.configureBlocking(true);
      ByteBuffer hello = ByteBuffer.wrap(ServeProtocol.line(ServeProtocol.HELLO));
      w.channel.write(hello);
      if (hello.hasRemaining()) {
        throw new IOException("the hello did not fit the socket's buffer");
      }
    } catch (IOException e) {
      LOG.debug("a proven connection ended early: {}", e.toString());
      closeQuietly(w.channel);
      return;
    }
    proven.accept(w.channel);
  }

  /** Closes every connection whose budget is spent. */
  private void expire() {
    long now = System.nanoTime();
    Iterator<Waiting> it = waiting.iterator();
    while (it.hasNext()) {
      Waiting w = it.next();
      if (w.deadline - now > 0) {
        break; // in accept order, so in deadline order
      }
      it.remove();
      closeQuietly(w.channel);
    }
  }

  /** Answers {@code refused} with the reason (one small write, never blocking) and closes. */
  private void refuse(Waiting w, String why) {
    if (why.equals("wrong token")) {
      LOG.warn("refused a connection with a wrong token");
    }
    byte[] reason = why.getBytes(StandardCharsets.UTF_8);
    byte[] head = ServeProtocol.line(ServeProtocol.REFUSED, 0, reason.length, 0);
    ByteBuffer answer = ByteBuffer.allocate(head.length + reason.length).put(head).put(reason);
    answer.flip();
    try {
      w.channel.write(answer);
    } catch (IOException e) {
      // gone already
    }
    drop(w);
  }

  private void drop(Waiting w) {
    waiting.remove(w);
    closeQuietly(w.channel);
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("closing a connection failed", e);
    }
  }
}
