package dev.prismindex.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.LocalBackend;
import dev.prismindex.cli.serve.ResidentServer;
import dev.prismindex.embed.testing.FakeEmbedder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Runs the CLI in this JVM with captured stdout and stderr and a chosen environment. */
public final class Harness {

  public static final ObjectMapper JSON = new ObjectMapper();

  /** Runs a client's command line in a resident server started by a test, as {@code serve} does. */
  public static final ResidentServer.CommandRunner COMMANDS = (args, out, err, env, backend) ->
      new Cli(out, err, env, x -> backend).run(args);


  public final Path repo;
  public Path cwd;
  public final Map<String, String> variables = new HashMap<>();
  public boolean stdoutTerminal;
  public boolean stderrTerminal;
  /** The id of {@link #embedder()}, which status output shows. */
  public static final String EMBEDDER_ID = "fake-bag-of-words-64";

  /** A small deterministic embedder by default (semantic and hybrid work, no ONNX model loads). */
  public Environment.Model model = Environment.Model.of(embedder());
  /** Which backend runs the commands: the one-shot {@link LocalBackend} unless a test sets one. */
  public Function<Environment, Backend> backends = LocalBackend::new;

  /** The CLI tests' embedder: core's {@link FakeEmbedder} with the id the status tests expect. */
  public static FakeEmbedder embedder() {
    return new FakeEmbedder(EMBEDDER_ID, FakeEmbedder.DIMENSION);
  }

  public Harness(Path repo) {
    this.repo = repo;
    this.cwd = repo;
  }

  /** The outcome of one run. */
  public record Result(int exit, String out, String err) {
    public List<String> outLines() {
      List<String> lines = new ArrayList<>(List.of(out.split("\n", -1)));
      if (lines.get(lines.size() - 1).isEmpty()) {
        lines.remove(lines.size() - 1);
      }
      return lines;
    }

    public List<JsonNode> json() {
      List<JsonNode> nodes = new ArrayList<>();
      for (String line : outLines()) {
        try {
          nodes.add(JSON.readTree(line));
        } catch (IOException e) {
          throw new UncheckedIOException("not JSON: " + line, e);
        }
      }
      return nodes;
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  public Environment environment() {
    return new Environment(cwd, variables, stdoutTerminal, stderrTerminal, model);
  }

  public Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = new Cli(o, e, environment(), backends).run(args);
      o.flush();
    }
    return new Result(exit, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /** Runs a command line as {@code main} does, with {@code stdin} as standard input. */
  public Result runWithStdin(byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = Main.run(args, new ByteArrayInputStream(stdin), o, e, environment(), backends);
      o.flush();
    }
    return new Result(exit, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /** Runs a command line with the caller's streams; returns the exit code. */
  public int run(PrintStream out, PrintStream err, String... args) {
    return new Cli(out, err, environment(), backends).run(args);
  }

  /** Writes a file below the repository. */
  public Path write(String rel, String content) throws IOException {
    Path p = repo.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
    return p;
  }

  /** A harness on {@link #smallRepository()}, indexed (the set-up of most tests). */
  public static Harness indexedSmallRepository(Path repo) throws IOException {
    Harness h = new Harness(repo);
    h.smallRepository();
    Result r = h.run("index");
    if (r.exit() != 0) {
      throw new IllegalStateException("index failed: " + r);
    }
    return h;
  }

  /** A small repository: Java, Python and Markdown. */
  public void smallRepository() throws IOException {
    write("src/main/java/demo/Duration.java", """
        package demo;

        /** Parses durations such as 5s or 2m. */
        public final class Duration {
          public static long parseDuration(String text) {
            if (text.endsWith("ms")) {
              return Long.parseLong(text.substring(0, text.length() - 2));
            }
            return Long.parseLong(text.substring(0, text.length() - 1)) * 1000;
          }

          /** Formats a duration in milliseconds. */
          public static String formatDuration(long millis) {
            return millis + "ms";
          }
        }
        """);
    write("src/main/java/demo/StaleCheck.java", """
        package demo;

        /** Decides whether the index is stale compared with the working tree. */
        final class StaleCheck {
          boolean isStale(long indexedAt, long modifiedAt) {
            return modifiedAt > indexedAt;
          }
        }
        """);
    write("tools/strings.py", """
        def snake_case_name(value):
            \"\"\"Turns CamelCase into snake_case.\"\"\"
            out = []
            for ch in value:
                if ch.isupper() and out:
                    out.append("_")
                out.append(ch.lower())
            return "".join(out)
        """);
    write("README.md", """
        # Demo

        A tiny repository for the prism-index CLI tests. It parses durations.
        """);
  }
}
