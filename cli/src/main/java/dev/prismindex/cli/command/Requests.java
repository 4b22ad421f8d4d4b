package dev.prismindex.cli.command;

import dev.prismindex.cli.command.Flags.IndexFlags;
import dev.prismindex.cli.command.Flags.McpFlags;
import dev.prismindex.cli.command.Flags.RootFlags;
import dev.prismindex.cli.command.Flags.SearchFlags;
import dev.prismindex.cli.command.Flags.ServeFlags;
import dev.prismindex.cli.command.Flags.StatusFlags;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RetrievalMode;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.internal.Utf8;
import dev.prismindex.repository.RepositoryLimits;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Step two of a command: raw {@link Flags} validated into complete requests. Every usage error
 * (exit code 2) is found here, before the index is touched.
 */
public final class Requests {

  /**
   * The longest query in UTF-8 bytes, in every mode: the literal searcher's pattern limit, so that
   * an over-long query is a usage error before any work rather than a failure of one engine.
   */
  public static final int MAX_QUERY_BYTES = RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES;

  /** The default refresh policy: at most this many changed files are re-indexed before a search. */
  public static final int DEFAULT_MAX_REFRESH_FILES = 200;

  private Requests() {}

  /** A validated command: one of the request records. */
  public sealed interface Request permits IndexRequest, SearchRequest, StatusRequest, ServeRequest,
      McpRequest {
    Target target();

    /** Whether output is JSON (NDJSON for hits). */
    boolean json();
  }

  /**
   * Which repository and which index directory.
   *
   * @param root the repository root (absolute, normalised)
   * @param home the index directory (absolute, normalised)
   */
  public record Target(Path root, Path home) {}

  /** What answers a search; {@link #AUTO} picks hybrid or lexical from what is available. */
  public enum QueryMode {
    AUTO, LEXICAL, SEMANTIC, HYBRID, LITERAL;

    /** The name used on the command line and in JSON. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static QueryMode of(RetrievalMode mode) {
      return switch (mode) {
        case LEXICAL -> LEXICAL;
        case SEMANTIC -> SEMANTIC;
        case HYBRID -> HYBRID;
      };
    }

    /** The engine mode; only for LEXICAL, SEMANTIC and HYBRID. */
    RetrievalMode retrieval() {
      return switch (this) {
        case LEXICAL -> RetrievalMode.LEXICAL;
        case SEMANTIC -> RetrievalMode.SEMANTIC;
        case HYBRID -> RetrievalMode.HYBRID;
        default -> throw new IllegalStateException("no engine mode for " + this);
      };
    }
  }

  /**
   * {@code search}.
   *
   * @param query the query, not blank
   * @param mode the requested mode ({@link QueryMode#AUTO} when none was given)
   * @param limit 1..{@value SearchOpts#MAX_LIMIT}
   * @param scope the normalised repository-relative scope, or null for the whole repository
   * @param caseSensitive exact case (literal mode only)
   * @param refresh whether to probe for changes and catch up before answering
   * @param maxRefreshFiles the largest change set re-indexed before answering
   */
  public record SearchRequest(Target target, boolean json, String query, QueryMode mode, int limit,
      @Nullable String scope, boolean caseSensitive, boolean refresh, int maxRefreshFiles)
      implements Request {

    /** The engine's options for this search in {@code engineMode}. */
    SearchOpts opts(RetrievalMode engineMode) {
      return new SearchOpts(limit, engineMode, scope);
    }
  }

  /** {@code index}. */
  public record IndexRequest(Target target, boolean json, boolean full, boolean verify, boolean semantic)
      implements Request {}

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
   */
  public record ServeRequest(Target target, Duration idleTimeout) implements Request {
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

  /** The default of {@code serve --idle-timeout}. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);

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
      return new IndexRequest(target(root, env), f.json, f.full, f.verify, !f.noSemantic);
    }
    if (sub instanceof StatusFlags f) {
      return new StatusRequest(target(root, env), f.json, maxRefresh(f.maxRefreshFiles),
          f.verify);
    }
    if (sub instanceof ServeFlags f) {
      return new ServeRequest(target(root, env), f.idleTimeout == null ? DEFAULT_IDLE_TIMEOUT
          : duration(f.idleTimeout, "--idle-timeout"));
    }
    if (sub instanceof McpFlags f) {
      return new McpRequest(target(root, env), maxRefresh(f.maxRefreshFiles));
    }
    throw new IllegalArgumentException("unknown command " + sub);
  }

  private static SearchRequest search(RootFlags root, SearchFlags f, Environment env)
      throws CliFailure {
    if (f.query == null || f.query.isBlank()) {
      throw CliFailure.usage("missing QUERY: prism-index search \"QUERY\"");
    }
    checkQueryLength(f.query);
    QueryMode mode = mode(f.mode);
    int limit = f.limit == null ? SearchOpts.DEFAULT_LIMIT : f.limit;
    if (limit < 1 || limit > SearchOpts.MAX_LIMIT) {
      throw CliFailure.usage("invalid --limit " + limit + ": expected 1.." + SearchOpts.MAX_LIMIT);
    }
    if (f.caseSensitive && mode != QueryMode.LITERAL) {
      throw CliFailure.usage("--case-sensitive applies to --mode literal only (lexical, semantic"
          + " and hybrid search ignore case)");
    }
    String scope;
    try {
      scope = new SearchOpts(limit, RetrievalMode.LEXICAL, f.path).pathScope();
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage("invalid --path: " + e.getMessage());
    }
    int max = maxRefresh(f.maxRefreshFiles);
    return new SearchRequest(target(root, env), f.json, f.query, mode, limit, scope,
        f.caseSensitive, !f.noRefresh, max);
  }

  /** Fails with a usage error naming the limit when {@code query} is over {@link #MAX_QUERY_BYTES}. */
  public static void checkQueryLength(String query) throws CliFailure {
    long bytes = Utf8.byteLength(query);
    if (bytes > MAX_QUERY_BYTES) {
      throw CliFailure.usage("the query is " + bytes + " bytes (UTF-8): at most " + MAX_QUERY_BYTES
          + " bytes are allowed");
    }
  }

  private static QueryMode mode(@Nullable String value) throws CliFailure {
    if (value == null) {
      return QueryMode.AUTO;
    }
    for (QueryMode m : QueryMode.values()) {
      if (m.wireName().equals(value.toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw CliFailure.usage("invalid --mode '" + value
        + "': expected lexical, semantic, hybrid or literal");
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
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }

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
    int max = value == null ? DEFAULT_MAX_REFRESH_FILES : value;
    if (max < 0) {
      throw CliFailure.usage("invalid --max-refresh-files " + max + ": expected 0 or more");
    }
    return max;
  }

  /** Resolves {@code --repo}, {@code --index-dir} and {@code PRISM_INDEX_DIR}. */
  static Target target(RootFlags root, Environment env) throws CliFailure {
    return target(root.repo, root.indexDir, env);
  }

  /** The same from the raw values of {@code --repo} and {@code --index-dir} (null when absent). */
  public static Target target(@Nullable String repoOption, @Nullable String indexDirOption,
      Environment env) throws CliFailure {
    Path repo;
    if (repoOption != null) {
      repo = resolve(env.cwd(), repoOption, "--repo");
      if (!Files.isDirectory(repo)) {
        throw CliFailure.usage("--repo " + repoOption + " is not a directory");
      }
    } else {
      repo = repositoryRoot(env.cwd());
    }
    String dir = indexDirOption != null ? indexDirOption
        : env.variable(Environment.INDEX_DIR_VARIABLE);
    Path home = dir == null ? repo.resolve(HybridIndexOptions.DEFAULT_HOME_NAME)
        : resolve(env.cwd(), dir, indexDirOption != null ? "--index-dir"
            : Environment.INDEX_DIR_VARIABLE);
    return new Target(repo, home);
  }

  private static Path resolve(Path cwd, String value, String what) throws CliFailure {
    try {
      return cwd.resolve(value).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw CliFailure.usage("invalid " + what + " '" + value + "': " + e.getReason());
    }
  }

  /** The nearest directory at or above {@code start} holding {@code .git}; else {@code start}. */
  public static Path repositoryRoot(Path start) {
    for (Path p = start; p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        return p;
      }
    }
    return start;
  }
}
