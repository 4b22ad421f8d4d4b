package dev.prismindex.cli.command;

import dev.prismindex.cli.command.Flags.CompletionFlags;
import dev.prismindex.cli.command.Flags.DoctorFlags;
import dev.prismindex.cli.command.Flags.IndexFlags;
import dev.prismindex.cli.command.Flags.McpFlags;
import dev.prismindex.cli.command.Flags.RootFlags;
import dev.prismindex.cli.command.Flags.SearchFlags;
import dev.prismindex.cli.command.Flags.ServeFlags;
import dev.prismindex.cli.command.Flags.StatusFlags;
import dev.prismindex.cli.output.Layout;
import dev.prismindex.engine.FileFilter;
import dev.prismindex.engine.SearchOpts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Step two of a command: raw {@link Flags} validated into complete requests. Every usage error
 * (exit code 2) is found here, before the index is touched.
 */
public final class Requests {

  private Requests() {}

  /** A validated command: one of the request records. */
  public sealed interface Request permits IndexRequest, SearchRequest, StatusRequest, ServeRequest,
      McpRequest, DoctorRequest {
    Target target();

    /** Whether output is JSON (NDJSON for hits). */
    boolean json();
  }

  /**
   * {@code index}.
   *
   * @param model the id of the embedding model asked for ({@code --model}, resolved), or null for
   *     the index's own (the default for a new one)
   */
  public record IndexRequest(Target target, boolean json, boolean full, boolean verify,
      boolean semantic, @Nullable String model) implements Request {

    /** {@code index} with the index's own model. */
    public IndexRequest(Target target, boolean json, boolean full, boolean verify,
        boolean semantic) {
      this(target, json, full, verify, semantic, null);
    }
  }

  /**
   * {@code status}.
   *
   * @param verify run Lucene's CheckIndex tests too, not only the checksums
   */
  public record StatusRequest(Target target, boolean json, int maxRefreshFiles, boolean verify)
      implements Request {}

  /**
   * {@code serve}.
   *
   * @param idleTimeout how long without a connection before the server stops; zero for never
   * @param stop stop the running server of the target instead of starting one
   * @param background started by a client in the background: wait a little for the lock of a
   *     server that is stopping, and end quietly when another one runs
   */
  public record ServeRequest(Target target, Duration idleTimeout, boolean stop,
      boolean background) implements Request {
    @Override
    public boolean json() {
      return false;
    }
  }

  /**
   * {@code mcp}: serve MCP on stdio.
   *
   * @param maxRefreshFiles the largest change set re-indexed before answering a search
   */
  public record McpRequest(Target target, int maxRefreshFiles) implements Request {
    @Override
    public boolean json() {
      return false;
    }
  }

  /** {@code doctor}: check the machine and the target's index. */
  public record DoctorRequest(Target target, boolean json) implements Request {}

  /**
   * {@code completion}: print the completion script of {@code shell}. Not a {@link Request}: it
   * has no target and touches no repository.
   */
  public record CompletionRequest(Shell shell) {}

  /**
   * {@code serve --list} or {@code serve --stop-all}: every server of this user, whatever its
   * repository. Not a {@link Request}: it has no target.
   *
   * @param stopAll stop them (else list them)
   * @param json list them as NDJSON
   */
  public record ServersRequest(boolean stopAll, boolean json) {}

  /**
   * Validates {@code serve --list} and {@code serve --stop-all}; null when {@code sub} is not a
   * {@code serve} asking for either.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} when they are combined with each other or with
   *     another option of {@code serve}
   */
  public static @Nullable ServersRequest servers(Object sub) throws CliFailure {
    if (!(sub instanceof ServeFlags f)) {
      return null;
    }
    if (!f.list && !f.stopAll) {
      if (f.json) {
        throw CliFailure.usage("--json goes with --list");
      }
      return null;
    }
    if (f.list && f.stopAll || f.stop || f.idleTimeout != null || f.background
        || f.json && f.stopAll) {
      throw CliFailure.usage((f.list ? "--list" : "--stop-all") + " stands alone (besides --json"
          + " with --list)");
    }
    return new ServersRequest(f.stopAll, f.json);
  }

  /** The shells {@code completion} writes a script for. */
  public enum Shell {
    BASH, ZSH, FISH;

    /** The name on the command line: {@code bash}, {@code zsh}, {@code fish}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The names, in order, for picocli's completion candidates (the scripts offer them). */
    public static final class Names implements Iterable<String> {
      @Override
      public Iterator<String> iterator() {
        return Arrays.stream(values()).map(Shell::label).iterator();
      }
    }
  }

  /** The default of {@code serve --idle-timeout}. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(15);

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

  /**
   * Validates the parsed flags of one subcommand.
   *
   * @param sub the subcommand's flags object
   * @throws CliFailure with {@link ExitCode#USAGE} for any invalid value
   */
  public static Request validate(RootFlags root, Object sub, Environment env) throws CliFailure {
    if (sub instanceof SearchFlags f) {
      return search(root, f, env);
    }
    if (sub instanceof IndexFlags f) {
      if (f.model != null && f.noSemantic) {
        throw new CliFailure(ExitCode.USAGE, "--model and --no-semantic exclude each other");
      }
      return new IndexRequest(target(root, env), f.json, f.full, f.verify, !f.noSemantic,
          f.model == null ? null : Environment.Model.named(f.model));
    }
    if (sub instanceof StatusFlags f) {
      return new StatusRequest(SearchRequests.repositories(target(root, env),
          workspaceFilter(root, env, f.reposOption.names), SearchSurface.Syntax.COMMAND_LINE),
          f.json, maxRefresh(f.maxRefreshFiles), f.verify);
    }
    if (sub instanceof ServeFlags f) {
      return new ServeRequest(target(root, env), f.idleTimeout == null ? DEFAULT_IDLE_TIMEOUT
          : duration(f.idleTimeout, "--idle-timeout"), f.stop, f.background);
    }
    if (sub instanceof McpFlags f) {
      return new McpRequest(target(root, env), maxRefresh(f.maxRefreshFiles));
    }
    if (sub instanceof DoctorFlags f) {
      return new DoctorRequest(target(root, env), f.json);
    }
    throw new IllegalArgumentException("unknown command " + sub);
  }

  /**
   * Validates the flags of {@code completion}; null when {@code sub} is another command's.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} for a missing or unknown shell
   */
  public static @Nullable CompletionRequest completion(Object sub) throws CliFailure {
    if (!(sub instanceof CompletionFlags f)) {
      return null;
    }
    String names = "bash, zsh or fish";
    if (f.shell == null || f.shell.isBlank()) {
      throw CliFailure.usage("missing SHELL: " + names);
    }
    for (Shell shell : Shell.values()) {
      if (shell.label().equals(f.shell.strip().toLowerCase(Locale.ROOT))) {
        return new CompletionRequest(shell);
      }
    }
    throw CliFailure.usage("unknown shell '" + f.shell + "': expected " + names);
  }

  /**
   * The search flags as raw arguments, validated by the one {@link SearchRequests#validate}, with
   * grep's {@code -m} cap. With {@code -l} or {@code -c} and no {@code --limit}, the search looks as
   * deep as it may (every match in an exact mode, else {@value SearchRequests#MAX_LIMIT} hits):
   * those list files and counts, not the best hits.
   */
  private static SearchRequest search(RootFlags root, SearchFlags f, Environment env)
      throws CliFailure {
    GrepOptions grep = grepOptions(f);
    RawSearchArgs raw = new RawSearchArgs()
        .put(RawSearchArgs.QUERY, query(f.query))
        .put(RawSearchArgs.MODE, f.mode)
        .put(RawSearchArgs.LIMIT, f.limit)
        .put(f.caseFlag == null ? RawSearchArgs.CASE_SENSITIVE : f.caseFlag,
            f.caseFlag == null ? null : true)
        .put(RawSearchArgs.REGEX, f.regex ? true : null)
        .put(RawSearchArgs.PATTERNS, f.patterns)
        .put(RawSearchArgs.FIXED_STRINGS, f.fixedStrings ? true : null)
        .put(RawSearchArgs.WORDS, f.wordRegexp ? true : null)
        .put(RawSearchArgs.PATH, f.paths)
        .put(RawSearchArgs.TYPE, f.types)
        .put(RawSearchArgs.GLOB, f.globs)
        .put(RawSearchArgs.CONTEXT, f.context)
        .put(RawSearchArgs.BEFORE, f.before)
        .put(RawSearchArgs.AFTER, f.after)
        .put(RawSearchArgs.REFRESH, !f.noRefresh)
        .put(RawSearchArgs.MAX_REFRESH_FILES, f.maxRefreshFiles)
        .put(RawSearchArgs.REPOS, workspaceFilter(root, env, f.reposOption.names));
    SearchSurface surface = SearchSurface.commandLine(f.json);
    SearchRequest request = SearchRequests.validate(raw, surface, () -> target(root, env),
        t -> SearchConfig.load(t.root(), env, !f.noConfig, surface.modes()));
    if (f.limit == null && (grep.layout() == Layout.FILES || grep.layout() == Layout.COUNT)) {
      request = request.withLimit(request.exact() ? SearchOpts.UNLIMITED
          : SearchRequests.MAX_LIMIT);
    }
    if (f.maxCount != null) {
      request = request.withMaxPerFile(f.maxCount);
    } else if (grep.layout() == Layout.FILES && request.exact()) {
      request = request.withMaxPerFile(1); // a file's first match names it: read no further
    }
    return request;
  }

  /**
   * {@code --repos} as a workspace's filter: none with {@code --backend opensearch}, where it
   * selects the organisation's repositories instead ({@link OrganisationCommand}; the same
   * grammar, {@link dev.prismindex.engine.RepositoryFilter}).
   */
  private static List<String> workspaceFilter(RootFlags root, Environment env,
      @Nullable List<String> repos) throws CliFailure {
    return repos == null || ClusterBackend.select(root, env) != null ? List.of() : repos;
  }

  /** The one query word (several are refused before parsing, see {@code Arguments}). */
  private static @Nullable String query(@Nullable List<String> words) throws CliFailure {
    if (words == null || words.isEmpty()) {
      return null;
    }
    if (words.size() > 1) {
      throw CliFailure.usage(words.size() + " words where one QUERY goes: quote a query of"
          + " several words");
    }
    return words.get(0);
  }

  /**
   * grep's output habits of a {@code search}: {@link GrepOptions#NONE} for another command.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} for {@code -l} with {@code -c}, either with
   *     {@code --json} (as ripgrep refuses them), an unknown {@code --color} or {@code -m} below 1
   *     (which the request carries: {@link SearchRequest#maxPerFile()})
   */
  public static GrepOptions grepOptions(Object sub) throws CliFailure {
    if (!(sub instanceof SearchFlags f)) {
      return GrepOptions.NONE;
    }
    if (f.filesWithMatches && f.count) {
      throw CliFailure.usage("-l (--files-with-matches) and -c (--count) cannot be combined");
    }
    Layout layout = f.filesWithMatches ? Layout.FILES
        : f.count ? Layout.COUNT : f.lineNumber ? Layout.LINES
        : Layout.BLOCKS;
    if (f.json && (layout == Layout.FILES || layout == Layout.COUNT)) {
      throw CliFailure.usage("--json prints hits: it cannot be combined with "
          + (f.count ? "-c (--count)" : "-l (--files-with-matches)")
          + " (as in ripgrep); count or list the paths of the NDJSON hits instead");
    }
    GrepOptions.Colour colour = GrepOptions.Colour.AUTO;
    if (f.color != null) {
      colour = null;
      for (GrepOptions.Colour c : GrepOptions.Colour.values()) {
        if (c.label().equals(f.color.strip().toLowerCase(Locale.ROOT))) {
          colour = c;
        }
      }
      if (colour == null) {
        throw CliFailure.usage("invalid --color '" + f.color + "': expected auto, always or never");
      }
    }
    if (f.maxCount != null && f.maxCount < 1) {
      throw CliFailure.usage("invalid --max-count " + f.maxCount + ": expected 1 or more (hits"
          + " from each file)");
    }
    return new GrepOptions(layout, colour);
  }

  /**
   * The lines {@code search --type-list} prints ({@code java: *.java}), or null when the
   * subcommand is not a search asking for them.
   */
  public static @Nullable List<String> typeList(Object sub) {
    if (!(sub instanceof SearchFlags f) || !f.typeList) {
      return null;
    }
    List<String> lines = new ArrayList<>();
    FileFilter.knownLanguages().forEach((language, patterns) -> lines.add(language + ": "
        + String.join(", ", patterns) + (language.equals("text") ? " (and every file no other"
            + " type names)" : "")));
    return lines;
  }

  /** Parses {@code 90s}, {@code 10m}, {@code 1h}, {@code 500ms} or {@code 0} (zero). */
  static Duration duration(String value, String option) throws CliFailure {
    Matcher m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (!m.matches() || (m.group(2) == null && Long.parseLong(m.group(1)) != 0)) {
      throw CliFailure.usage("invalid " + option + " '" + value + "': expected a duration such as"
          + " 90s, 10m, 1h or 500ms (0: never)");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    Duration d = switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
    if (d.compareTo(MAX_DURATION) > 0) {
      throw CliFailure.usage("invalid " + option + " '" + value + "': at most 365 days (0: never)");
    }
    return d;
  }

  /** The longest duration {@link #duration} accepts (a timer must be able to count it in nanos). */
  static final Duration MAX_DURATION = Duration.ofDays(365);

  /** The shortest of the forms {@link #duration} reads. */
  public static String formatDuration(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }


  private static int maxRefresh(@Nullable Integer value) throws CliFailure {
    return SearchRequests.maxRefreshFiles(value, SearchRequests.DEFAULT_MAX_REFRESH_FILES,
        SearchSurface.Syntax.COMMAND_LINE);
  }

  /**
   * Resolves {@code --repo} (repeatable), {@code --workspace}, {@code --index-dir} and {@code
   * PRISM_INDEX_DIR} (and a workspace file above the working directory).
   */
  static Target target(RootFlags root, Environment env) throws CliFailure {
    return Target.resolve(root.repos == null ? List.of() : root.repos, root.workspace,
        root.indexDir, env);
  }
}
