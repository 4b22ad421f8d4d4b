package dev.prismindex.cli.command;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;

/**
 * What a command may learn about the world outside its arguments: the working directory, the
 * environment variables, whether stdout and stderr are terminals, and where the embedding model
 * comes from. Tests build one (with a small deterministic embedder, or none); {@link #system()}
 * reads the real process.
 *
 * @param cwd the working directory (absolute)
 * @param variables the environment variables
 * @param stdoutTerminal whether standard output is a terminal (colour)
 * @param stderrTerminal whether standard error is a terminal (progress display)
 * @param model which embedding model the engine uses
 */
public record Environment(
    Path cwd,
    Map<String, String> variables,
    boolean stdoutTerminal,
    boolean stderrTerminal,
    Model model) {

  /**
   * The embedding model: each index's own, else the class path's default ({@link
   * EmbedderProvider#findDefault()}: the static code model in the runnable jar), a given one, or
   * none (semantic search switched off).
   *
   * @param semantic whether semantic search is on
   * @param embedder the model to use instead of the class path's default; null for the default
   */
  public record Model(boolean semantic, @Nullable Embedder embedder) {
    static final Model DEFAULT = new Model(true, null);
    public static final Model NONE = new Model(false, null);

    public static Model of(Embedder embedder) {
      return new Model(true, embedder);
    }

    /**
     * The id of the model of the class path that {@code name} names: its id, or one of the
     * dash-separated words of its id ({@code code} for {@code prism-code-v1-t1}, {@code minilm}
     * for {@code all-minilm-l6-v2-q-t64}).
     *
     * @throws CliFailure with {@link ExitCode#USAGE} when no model, or more than one, has that
     *     name
     */
    public static String named(String name) throws CliFailure {
      List<String> ids = new ArrayList<>();
      ServiceLoader.load(EmbedderProvider.class).forEach(p -> ids.add(p.id()));
      if (ids.contains(name)) {
        return name;
      }
      List<String> matching = ids.stream()
          .filter(id -> Arrays.asList(id.split("-")).contains(name.toLowerCase(Locale.ROOT)))
          .toList();
      if (matching.size() == 1) {
        return matching.get(0);
      }
      throw new CliFailure(ExitCode.USAGE, "--model " + name + ": "
          + (matching.isEmpty() ? "no such model" : "ambiguous") + "; the models here: "
          + (ids.isEmpty() ? "none" : String.join(", ", ids)));
    }

    /** The id of the model this process would use, if any (never loads the model). */
    public Optional<String> id() {
      if (!semantic) {
        return Optional.empty();
      }
      Embedder e = embedder;
      return e != null ? Optional.of(e.id())
          : EmbedderProvider.findDefault().map(EmbedderProvider::id);
    }
  }

  /** The environment variable naming the index directory (overridden by {@code --index-dir}). */
  public static final String INDEX_DIR_VARIABLE = "PRISM_INDEX_DIR";

  /**
   * The system properties through which the launcher passes what only the shell knows cheaply:
   * whether fd 1 and fd 2 are terminals ({@code [ -t 1 ]}).
   */
  public static final String STDOUT_TTY_PROPERTY = "prism-index.stdout.tty";

  public static final String STDERR_TTY_PROPERTY = "prism-index.stderr.tty";

  public Environment {
    cwd = Objects.requireNonNull(cwd, "cwd").toAbsolutePath().normalize();
    variables = Map.copyOf(variables);
    Objects.requireNonNull(model, "model");
  }

  /** The real process: {@code user.dir}, {@link System#getenv()}, terminal flags, ServiceLoader. */
  public static Environment system() {
    boolean console = System.console() != null;
    return new Environment(Path.of(System.getProperty("user.dir")), System.getenv(),
        flag(STDOUT_TTY_PROPERTY, console), flag(STDERR_TTY_PROPERTY, console), Model.DEFAULT);
  }

  private static boolean flag(String property, boolean fallback) {
    String value = System.getProperty(property);
    return value == null || value.isEmpty() ? fallback : Boolean.parseBoolean(value);
  }

  public @Nullable String variable(String name) {
    String value = variables.get(name);
    return value == null || value.isEmpty() ? null : value;
  }

  /** Turns on debug logging of prism-index's own loggers (JGit and Lucene's drown everything). */
  public static void debugLogging() {
    System.setProperty("org.slf4j.simpleLogger.log.dev.prismindex", "debug");
  }

  /** Colour on stdout: a terminal, and {@code NO_COLOR} not set (see no-color.org). */
  public boolean colour() {
    return stdoutTerminal && variable("NO_COLOR") == null && !"dumb".equals(variable("TERM"));
  }
}
