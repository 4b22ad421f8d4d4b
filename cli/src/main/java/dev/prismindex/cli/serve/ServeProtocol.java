package dev.prismindex.cli.serve;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The wire format between a client of the resident server ({@link ServeClient} in a JVM, or the
 * bash launcher {@code scripts/prism-index} through {@code /dev/tcp}) and {@code prism-index serve}
 * ({@link ResidentServer}), on a TCP connection to the loopback address. Loaded by the one-shot
 * client: nothing here touches the engine, Lucene or the model. Described for people in
 * docs/agents.md ("Wire protocol"); this class and the launcher are its two implementations.
 *
 * <p>The server writes {@code <port> <token> <pid>\n} to {@link #PORT_FILE} (mode 0600, in the
 * owner-only directory {@link #DIR} below the index home); a client reads it, connects, and sends
 * one request of NUL-terminated UTF-8 fields: {@link #MAGIC}, the token, the client's code (jar
 * path), the index home it resolved, the working directory, {@code 0|1} whether stdout and stderr
 * are terminals, the number of environment variables then {@code NAME=VALUE} each (only the
 * {@link #VARIABLES} the CLI reads), the number of arguments then each argument. The server answers
 * with ASCII lines and raw bytes: {@code <MAGIC> hello\n} once the magic and the token are read
 * ({@link ConnectionGate}; a client that sees none in time says so and runs the command itself),
 * then the answer as it is made, in frames: {@code <MAGIC> out N\n} and N bytes of stdout,
 * {@code <MAGIC> err N\n} and N bytes of stderr, in the order the command wrote them, and last
 * {@code <MAGIC> end EXIT N\n} followed by N bytes of stderr written after the rest of stdout,
 * then that rest until the connection closes (the client prints those N bytes after it; so a small
 * answer is one {@code end} line, its stderr and its stdout); or {@code <MAGIC> refused 0 N 0\n}
 * and N bytes saying why (a wrong token, another build, another index, not a served command): the
 * client then runs the command in its own process.
 */
final class ServeProtocol {

  /** The first field of a request and of every line of an answer; names the protocol version. */
  static final String MAGIC = "prism-index-serve/3";

  /** The directory (mode 0700) below the index home holding the port file, lock and log. */
  static final String DIR = "serve";

  /** {@code <port> <token> <pid>}: where the server listens and the secret a client must send. */
  static final String PORT_FILE = "serve.port";

  static final String LOCK = "serve.lock";

  /** Where a server started in the background by a client writes its output. */
  static final String LOG = "serve.log";

  /** The environment variables a client sends: exactly those the CLI reads. */
  static final List<String> VARIABLES = List.of("NO_COLOR", "TERM", "PRISM_INDEX_DIR",
      "PRISM_INDEX_SERVE", "PRISM_INDEX_MODE", "PRISM_INDEX_LIMIT", "PRISM_INDEX_CONTEXT",
      "XDG_CONFIG_HOME", "HOME");

  /**
   * {@code PRISM_INDEX_SERVE}: {@code 0} (or {@code off}) never uses or starts a server;
   * {@code require} fails (exit code 1) when no compatible server answers; otherwise a server is
   * used when one answers and started in the background when none does.
   */
  static final String MODE_VARIABLE = "PRISM_INDEX_SERVE";

  /** The same as {@link #MODE_VARIABLE}, as a system property (the launcher's AppCDS training). */
  static final String MODE_PROPERTY = "prism-index.serve";

  /**
   * Largest request a server reads (all fields with their terminators). A larger one is read past
   * without being kept and refused: the client then runs the command itself.
   */
  static final int MAX_REQUEST_BYTES = 4 << 20;

  /** Beyond this, a request is not even read past: the connection is dropped. */
  static final int HARD_LIMIT_BYTES = 64 << 20;

  /** The most environment variables or arguments a request may announce. */
  static final int MAX_ITEMS = 100_000;

  /** Longest answer line a client reads. */
  static final int MAX_LINE = 200;

  static final String HELLO = "hello";
  /** A frame of stdout: {@code out N}. */
  static final String OUT = "out";
  /** A frame of stderr: {@code err N}. */
  static final String ERR = "err";
  /**
   * The answer's last line, {@code end EXIT N}: N bytes of stderr (printed after the rest of
   * stdout), then the rest of stdout until the end.
   */
  static final String END = "end";
  static final String REFUSED = "refused";

  private static volatile @Nullable Path code;

  private ServeProtocol() {}

  static Path dir(Path home) {
    return home.resolve(DIR);
  }

  static Path portFile(Path home) {
    return dir(home).resolve(PORT_FILE);
  }

  /**
   * The jar (or class directory) this code was loaded from, absolute: a client sends it and a
   * server answers only clients of its own code.
   */
  static Path code() {
    Path c = code;
    if (c == null) {
      c = locate();
      code = c;
    }
    return c;
  }

  private static Path locate() {
    try {
      CodeSource source = ServeProtocol.class.getProtectionDomain().getCodeSource();
      URL url = source == null ? null : source.getLocation();
      if (url != null) {
        return Path.of(url.toURI()).toAbsolutePath().normalize();
      }
    } catch (URISyntaxException | RuntimeException e) {
      // below
    }
    return Path.of("unknown");
  }

  /** The code's size and modification time: a server started before a rebuild stops answering. */
  static String stamp(Path code) {
    try {
      return Files.isRegularFile(code)
          ? Files.size(code) + " " + Files.getLastModifiedTime(code).toMillis() : "directory";
    } catch (IOException e) {
      return "unreadable";
    }
  }

  /** Writes one NUL-terminated field. */
  static void writeField(OutputStream out, String value) throws IOException {
    out.write(value.getBytes(StandardCharsets.UTF_8));
    out.write(0);
  }

  /** An answer line: {@link #MAGIC}, then the words, space-separated, then a line feed. */
  static byte[] line(Object... words) {
    StringBuilder b = new StringBuilder(MAGIC);
    for (Object w : words) {
      b.append(' ').append(w);
    }
    return b.append('\n').toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Reads one answer line (without its line feed) of at most {@link #MAX_LINE} bytes.
   *
   * @throws EOFException when the connection ends first
   */
  static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw new EOFException("the server closed the connection");
      }
      if (c == '\n') {
        return b.toString(StandardCharsets.US_ASCII);
      }
      if (b.size() >= MAX_LINE) {
        throw new IOException("answer line too long");
      }
      b.write(c);
    }
  }

  /**
   * The fields of one request, read within {@link #MAX_REQUEST_BYTES}: once the budget is spent,
   * fields are read past without being kept and come back empty.
   */
  static final class FieldReader {
    private final InputStream in;
    private long used;

    FieldReader(InputStream in) {
      this.in = in;
    }

    /** The next NUL-terminated field. */
    String next() throws IOException {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      while (true) {
        int c = in.read();
        if (c < 0) {
          throw new EOFException("the request ended early");
        }
        used++;
        if (used > HARD_LIMIT_BYTES) {
          throw new IOException("request larger than " + HARD_LIMIT_BYTES + " bytes");
        }
        if (c == 0) {
          return b.toString(StandardCharsets.UTF_8);
        }
        if (used <= MAX_REQUEST_BYTES) {
          b.write(c);
        }
      }
    }

    /** The next field as a count of at most {@link #MAX_ITEMS}. */
    int count() throws IOException {
      String s = next();
      try {
        int n = Integer.parseInt(s);
        if (n >= 0 && n <= MAX_ITEMS) {
          return n;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new IOException("bad count '" + s + "'");
    }

    /** The request's size so far, in bytes. */
    long used() {
      return used;
    }

    boolean exceeded() {
      return used > MAX_REQUEST_BYTES;
    }
  }
}
