package dev.prismindex.cli;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.LocalBackend;
import dev.prismindex.cli.serve.ServeClient;
import dev.prismindex.cli.serve.ServerStarter;
import dev.prismindex.engine.HybridIndex;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * The entry point of {@code prism-index}: see docs/cli.md. {@code search} and {@code status} are
 * answered by a resident server of the same index when one runs ({@link ServeClient}), else here,
 * and then a server is started in the background for the next one ({@link ServerStarter}).
 */
public final class Main {
  private Main() {}

  public static void main(String[] given) {
    sameArithmeticOnEveryJvm();
    String[] args = Cli.withStdinQuery(given, System.in, System.err);
    if (args == null) {
      System.exit(ExitCode.USAGE);
    }
    PrintStream out = stdout();
    Environment env = Environment.system();
    OptionalInt served = ServeClient.forward(args, env, out, System.err);
    if (served.isPresent()) {
      System.exit(served.getAsInt());
    }
    if (probesSoon(args)) {
      // Git's configuration and Lucene's constants, read while the command line is parsed (the
      // engine's classes are initialised on that thread too, not on this one).
      Thread warmUp = new Thread(HybridIndex::warmUp, "prism-index-warm-up");
      warmUp.setDaemon(true);
      warmUp.start();
    }
    int code = run(args, out, System.err, env);
    try {
      ServerStarter.startIfUseful(args, env, System.err);
    } catch (LinkageError e) {
      // This process's jar was rewritten since it started (a rebuild in a checkout writes it in
      // place): no server from it; the next command starts one from the new jar.
    }
    System.exit(code);
  }

  /**
   * Whether the command is one that opens an index and walks the repository right away in this
   * process ({@code search} and {@code status}, which probe for changes first): the command word is
   * the first argument naming a command, the values of the options before it skipped.
   */
  static boolean probesSoon(String[] args) {
    boolean value = false;
    for (String a : args) {
      if (value) {
        value = false;
        continue;
      }
      switch (a) {
        case "--repo", "--index-dir", "--workspace", "--backend", "--opensearch-url",
            "--organisation" -> value = true;
        case "search", "status" -> {
          return true;
        }
        case "index", "serve", "mcp", "doctor", "completion", "--" -> {
          return false;
        }
        default -> { }
      }
    }
    return false;
  }

  /**
   * Runs one command line against the real environment with the given streams.
   *
   * @return the exit code (0 ok, 1 failure, 2 usage, 3 index, 4 model)
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, Environment.system());
  }

  static int run(String[] args, PrintStream out, PrintStream err, Environment env) {
    return new Cli(out, err, env, LocalBackend::new).run(args);
  }

  /**
   * Runs one command line as {@link #main} does in process, with {@code in} as stdin (a query given
   * as {@code -} is read from it), on the given backends.
   */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err, Environment env,
      Function<Environment, Backend> backends) {
    String[] resolved = Cli.withStdinQuery(args, in, err);
    return resolved == null ? ExitCode.USAGE : new Cli(out, err, env, backends).run(resolved);
  }

  /**
   * Scores must not depend on how the JVM was started: Lucene uses fused multiply-add in vector
   * similarities only when C2 is on, which changes the last bits of semantic scores between the
   * launcher's one-shot JVM ({@code -XX:TieredStopAtLevel=1}), a plain {@code java -jar} and the
   * resident server. Without FMA every JVM computes the same floats. A value given on the command
   * line ({@code -Dlucene.useScalarFMA=...}) is kept.
   */
  static void sameArithmeticOnEveryJvm() {
    for (String property : new String[] {"lucene.useScalarFMA", "lucene.useVectorFMA"}) {
      if (System.getProperty(property) == null) {
        System.setProperty(property, "false");
      }
    }
  }

  /** UTF-8 whatever the locale, buffered (flushed by the command), on fd 1. */
  private static PrintStream stdout() {
    return new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out),
        1 << 16), false, StandardCharsets.UTF_8);
  }
}
