package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.Flags;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * The wire format between {@code prism-index search|status} ({@link ServeClient}) and
 * {@code prism-index serve} ({@link ResidentServer}) on the Unix domain socket
 * {@code <index home>/serve/serve.sock}. Loaded by the one-shot client: nothing here touches the
 * engine, Lucene or the model.
 *
 * <p>One request per connection. Handshake, both ways: {@link #MAGIC}, {@link #VERSION} and the
 * {@link #build() build} (each side drops a peer that differs in any). Then the client sends the
 * command line as the in-process CLI would see it: the index home it resolved, the working
 * directory, whether stdout and stderr are terminals, the environment variables and the arguments.
 * The server runs the same CLI pipeline on its warm backend and answers with frames, in order:
 * {@link #STDOUT} and {@link #STDERR} chunks, then {@link #EXIT} with the exit code, or a single
 * {@link #REFUSED} (this server does not answer for that index; the client runs the command itself).
 * Strings and byte chunks are length-prefixed (an int, then the UTF-8 bytes).
 */
final class ServeProtocol {

  /** "PRIX" in ASCII. */
  static final int MAGIC = 0x50524958;

  /** Bumped on any change of the wire format or of what a server promises. */
  static final int VERSION = 1;

  static final byte STDOUT = 1;
  static final byte STDERR = 2;
  static final byte EXIT = 3;
  static final byte REFUSED = 4;

  /** The directory (mode 0700) below the index home holding the socket and the server's lock. */
  static final String DIR = "serve";

  static final String SOCKET = "serve.sock";
  static final String LOCK = "serve.lock";

  /** Linux's limit of a socket path ({@code sun_path} holds 108 bytes with the final NUL). */
  static final int MAX_SOCKET_PATH_BYTES = 107;

  /**
   * {@code PRISM_INDEX_SERVE}: {@code 0} (or {@code off}) never uses a server; {@code require}
   * fails (exit code 1) when no compatible server answers (tests, benchmarks).
   */
  static final String MODE_VARIABLE = "PRISM_INDEX_SERVE";

  /** The same as {@link #MODE_VARIABLE}, as a system property (the launcher's AppCDS training). */
  static final String MODE_PROPERTY = "prism-index.serve";

  /** Largest string or chunk accepted from a peer. */
  private static final int MAX_BYTES = 64 << 20;

  /**
   * Largest request a server reads: the bytes of its strings (index home, working directory,
   * environment, arguments) and their length prefixes. A larger one is read past without being
   * kept and refused ({@link #REFUSED}): the client then runs the command itself.
   */
  static final int MAX_REQUEST_BYTES = 4 << 20;

  private static volatile String build;

  private ServeProtocol() {}

  static Path dir(Path home) {
    return home.resolve(DIR);
  }

  static Path socket(Path home) {
    return dir(home).resolve(SOCKET);
  }

  /**
   * What must match between client and server beyond the protocol version: the product version
   * and the code the classes come from (the jar or class directory, its size and modification
   * time), so that a server started before a rebuild never answers for newer code.
   */
  static String build() {
    String b = build;
    if (b == null) {
      b = Flags.VersionProvider.version() + " " + codeStamp();
      build = b;
    }
    return b;
  }

  private static String codeStamp() {
    try {
      CodeSource source = ServeProtocol.class.getProtectionDomain().getCodeSource();
      URL url = source == null ? null : source.getLocation();
      if (url == null) {
        return "unknown";
      }
      Path code = Path.of(url.toURI());
      return Files.isRegularFile(code)
          ? code + " " + Files.size(code) + " " + Files.getLastModifiedTime(code).toMillis()
          : code.toString();
    } catch (IOException | URISyntaxException | RuntimeException e) {
      return "unknown";
    }
  }

  static void writeHello(DataOutputStream out) throws IOException {
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    writeString(out, build());
  }

  /**
   * Reads the peer's hello.
   *
   * @return null when it matches this side, else what the peer is (for a debug note)
   */
  static String readHello(DataInputStream in) throws IOException {
    int magic = in.readInt();
    if (magic != MAGIC) {
      return "not a prism-index server";
    }
    int version = in.readInt();
    if (version != VERSION) {
      return "protocol version " + version + ", this one " + VERSION;
    }
    String peer = readString(in);
    return peer.equals(build()) ? null : "build " + peer + ", this one " + build();
  }

  static void writeString(DataOutputStream out, String s) throws IOException {
    writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
  }

  static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  static String readString(DataInputStream in) throws IOException {
    return new String(readBytes(in), StandardCharsets.UTF_8);
  }

  static byte[] readBytes(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_BYTES) {
      throw new IOException("bad frame length " + n);
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  /** How many bytes of a request were announced so far, against {@link #MAX_REQUEST_BYTES}. */
  static final class Budget {
    private final long max;
    private long used;

    Budget(long max) {
      this.max = max;
    }

    /** The request's size so far, in bytes. */
    long used() {
      return used;
    }

    boolean exceeded() {
      return used > max;
    }
  }

  /**
   * Reads a string of a request and counts it against the budget; once the budget is exceeded,
   * skips the string's bytes without keeping them and returns "".
   */
  static String readString(DataInputStream in, Budget budget) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_BYTES) {
      throw new IOException("bad frame length " + n);
    }
    budget.used += Integer.BYTES + (long) n;
    if (budget.exceeded()) {
      in.skipNBytes(n);
      return "";
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  /** Reads a count that announces at most {@code max} items. */
  static int readCount(DataInputStream in, int max) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max) {
      throw new EOFException("bad count " + n);
    }
    return n;
  }
}
