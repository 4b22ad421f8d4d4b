package dev.prismindex.cli.command;

import dev.prismindex.engine.FileFilter;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.Workspace;
import dev.prismindex.internal.Utf8;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.SearchMode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The one validator of a search: {@link RawSearchArgs} in, a {@link SearchRequest} or a usage error
 * (exit code 2) out, for every surface. The rules live here once: the query's byte limit, the limit's
 * range, the mode's vocabulary (restricted to the modes the surface offers), case sensitivity in
 * literal mode only, the files searched ({@code SearchFiles}: scopes, languages, globs), an exact
 * search's query ({@code ExactQuery}) and the refresh policy. Only the way an error
 * names an argument differs by surface ({@link SearchSurface.Syntax}).
 */
public final class SearchRequests {

  /**
   * The longest query in UTF-8 bytes, in every mode: the literal searcher's pattern limit, so that
   * an over-long query is a usage error before any work rather than a failure of one engine.
   */
  public static final int MAX_QUERY_BYTES = RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES;

  /** The most hits a search may ask for: the one hard cap on a search's matches. */
  public static final int MAX_LIMIT = RepositoryLimits.HARD_MAX_SEARCH_MATCHES;

  /** The number of hits when none is asked for. */
  public static final int DEFAULT_LIMIT = SearchOpts.DEFAULT_LIMIT;

  /** The most lines of context on either side of a hit: the one hard cap of every surface. */
  public static final int MAX_CONTEXT = RepositoryLimits.HARD_MAX_SEARCH_CONTEXT_LINES;

  /** The default refresh policy: at most this many changed files are re-indexed before a search. */
  public static final int DEFAULT_MAX_REFRESH_FILES = 200;

  private SearchRequests() {}

  /** Where the target of a search comes from; resolving it may fail with a usage error. */
  @FunctionalInterface
  public interface TargetSource {
    /**
     * The target.
     *
     * @throws CliFailure with {@link ExitCode#USAGE} when it cannot be resolved
     */
    Target get() throws CliFailure;
  }

  /** Where the defaults of a search come from, once its target is known. */
  @FunctionalInterface
  public interface ConfigSource {
    /** No defaults (the MCP tool's searches, and tests). */
    ConfigSource NONE = target -> SearchConfig.NONE;

    /**
     * The defaults for {@code target}.
     *
     * @throws CliFailure with {@link ExitCode#USAGE} for a bad setting
     */
    SearchConfig load(Target target) throws CliFailure;
  }

  /**
   * Validates one search's raw arguments, without defaults from the environment or a file.
   *
   * @see #validate(RawSearchArgs, SearchSurface, TargetSource, ConfigSource)
   */
  public static SearchRequest validate(RawSearchArgs raw, SearchSurface surface,
      TargetSource target) throws CliFailure {
    return validate(raw, surface, target, ConfigSource.NONE);
  }

  /**
   * Validates one search's raw arguments. The arguments are checked first; then the target is
   * resolved and the defaults loaded for it: an argument given wins over its default ({@code -B}
   * and {@code -A} over {@code -C}, each over the default context), and the defaults' excludes
   * come after the arguments' globs, so they always apply.
   *
   * @param raw the arguments as the surface received them
   * @param surface who asks: how errors name the arguments, which modes are offered, the defaults
   * @param target the repository and its index, resolved after the arguments were checked (so an
   *     argument's error comes before a target's)
   * @param config the defaults of the target (environment variables, configuration files)
   * @throws CliFailure with {@link ExitCode#USAGE} for the first invalid argument or setting
   */
  public static SearchRequest validate(RawSearchArgs raw, SearchSurface surface,
      TargetSource target, ConfigSource config) throws CliFailure {
    SearchSurface.Syntax syntax = surface.syntax();
    unknown(raw, syntax);
    List<String> patterns = strings(raw.get(RawSearchArgs.PATTERNS), RawSearchArgs.PATTERNS,
        syntax);
    String query;
    if (patterns.isEmpty()) {
      query = query(raw.get(RawSearchArgs.QUERY), syntax);
      patterns = List.of(query);
    } else if (raw.get(RawSearchArgs.QUERY) != null) {
      throw CliFailure.usage("both QUERY and -e give a pattern: give every pattern with -e"
          + " (a path to search goes to --path)");
    } else {
      query = String.join("|", patterns);
    }
    Object modeValue = raw.get(RawSearchArgs.MODE);
    boolean auto = syntax == SearchSurface.Syntax.COMMAND_LINE && modeValue instanceof String m
        && m.equalsIgnoreCase(AUTO);
    SearchMode mode = auto ? null : mode(modeValue, surface);
    Object limitValue = raw.get(RawSearchArgs.LIMIT);
    Integer limit = limitValue == null ? null : limit(limitValue, syntax);
    boolean caseSensitive = bool(raw, RawSearchArgs.CASE_SENSITIVE, false, syntax);
    boolean ignoreCase = bool(raw, RawSearchArgs.IGNORE_CASE, false, syntax);
    boolean smartCase = bool(raw, RawSearchArgs.SMART_CASE, false, syntax);
    if ((caseSensitive ? 1 : 0) + (ignoreCase ? 1 : 0) + (smartCase ? 1 : 0) > 1) {
      throw CliFailure.usage("give one of " + syntax.name(RawSearchArgs.CASE_SENSITIVE) + ", "
          + syntax.name(RawSearchArgs.IGNORE_CASE) + " and "
          + syntax.name(RawSearchArgs.SMART_CASE));
    }
    boolean regexFlag = bool(raw, RawSearchArgs.REGEX, false, syntax);
    boolean fixed = bool(raw, RawSearchArgs.FIXED_STRINGS, false, syntax);
    boolean words = bool(raw, RawSearchArgs.WORDS, false, syntax);
    boolean fromE = raw.get(RawSearchArgs.PATTERNS) != null;
    if (fixed && regexFlag) {
      throw CliFailure.usage("-F (fixed strings) and --regex contradict each other");
    }
    SearchMode implied = fixed ? SearchMode.LITERAL : regexFlag ? SearchMode.REGEX
        : fromE ? (mode == SearchMode.LITERAL ? SearchMode.LITERAL : SearchMode.REGEX) : null;
    if (implied != null && (auto || mode != null && mode != implied)) {
      throw CliFailure.usage((fixed ? "-F" : regexFlag ? "--regex" : "-e") + " asks for the "
          + implied.wireName() + " mode, not " + (auto ? AUTO : mode.wireName()));
    }
    if (implied != null) {
      mode = implied;
      modeValue = implied.wireName();
    }
    List<String> scopes = SearchFiles.scopes(raw.get(RawSearchArgs.PATH), syntax);
    List<String> types = SearchFiles.types(raw.get(RawSearchArgs.TYPE), syntax);
    List<String> globs = SearchFiles.globs(raw.get(RawSearchArgs.GLOB), syntax);
    Integer context = context(raw, RawSearchArgs.CONTEXT, syntax);
    Integer before = context(raw, RawSearchArgs.BEFORE, syntax);
    Integer after = context(raw, RawSearchArgs.AFTER, syntax);
    boolean refresh = bool(raw, RawSearchArgs.REFRESH, true, syntax);
    int maxRefresh = maxRefreshFiles(raw.get(RawSearchArgs.MAX_REFRESH_FILES),
        surface.maxRefreshFiles(), syntax);
    List<String> only = strings(raw.get(RawSearchArgs.REPOS), RawSearchArgs.REPOS, syntax);
    Target resolved = repositories(target.get(), only, syntax);
    SearchConfig defaults = config.load(resolved);
    if (modeValue == null && defaults.modeSet()) {
      mode = defaults.mode();
    }
    boolean exact = mode != null && mode.exact();
    if (caseSensitive && !exact) {
      List<String> exactModes = surface.modes().stream().filter(SearchMode::exact)
          .map(SearchMode::wireName).toList();
      throw CliFailure.usage(syntax.name(RawSearchArgs.CASE_SENSITIVE) + " applies to "
          + syntax.name(RawSearchArgs.MODE) + " " + String.join(" and ", exactModes)
          + " only (lexical, semantic and hybrid search ignore case)");
    }
    if (words && !exact) {
      throw CliFailure.usage(syntax.name(RawSearchArgs.WORDS) + " applies to the exact modes"
          + " (" + syntax.name(RawSearchArgs.MODE) + " literal or regex, -F, -e, --regex)");
    }
    if (exact) {
      ExactQuery e = ExactQuery.of(mode, patterns, words, caseSensitive, ignoreCase, smartCase);
      mode = e.mode();
      query = e.query();
      caseSensitive = e.caseSensitive();
    } else {
      caseSensitive = false; // -i and -S: the ranked modes ignore case anyway
    }
    if (limit != null && limit > MAX_LIMIT
        && (!exact || syntax != SearchSurface.Syntax.COMMAND_LINE)) {
      throw CliFailure.usage("invalid " + syntax.name(RawSearchArgs.LIMIT) + " " + limit
          + ": expected " + (syntax == SearchSurface.Syntax.COMMAND_LINE ? "" : "an integer ")
          + "1.." + MAX_LIMIT + (syntax == SearchSurface.Syntax.COMMAND_LINE
              ? " (the exact modes take any limit)" : ""));
    }
    int both = context != null ? context : defaults.context() != null ? defaults.context() : 0;
    FileFilter files = SearchFiles.filter(scopes, types, globs, defaults.exclude(), resolved,
        syntax);
    // Without a limit asked for (option, variable or file), the exact modes print every match.
    int resolvedLimit = limit != null ? limit : defaults.limit() != null ? defaults.limit()
        : exact && syntax == SearchSurface.Syntax.COMMAND_LINE ? SearchOpts.UNLIMITED
        : DEFAULT_LIMIT;
    return new SearchRequest(resolved, surface.json(), query, mode, resolvedLimit,
        files, before != null ? before : both, after != null ? after : both, caseSensitive,
        refresh, maxRefresh, words && exact);
  }

  /**
   * {@code target}, a workspace narrowed to the repositories {@code only} selects (names or
   * globs, {@link Workspace#select}); {@code target} itself when {@code only} is empty.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} for a filter of one repository, an invalid
   *     pattern, a name no repository has, or patterns that select none
   */
  static Target repositories(Target target, List<String> only,
      SearchSurface.Syntax syntax) throws CliFailure {
    if (only.isEmpty()) {
      return target;
    }
    String option = syntax.name(RawSearchArgs.REPOS);
    if (!target.workspace()) {
      throw CliFailure.usage(option + " selects repositories of a workspace; this search has one"
          + " repository, " + target.root());
    }
    List<String> names;
    try {
      names = Workspace.select(target.members().stream().map(Target.Member::name).toList(), only);
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage(option + ": " + e.getMessage());
    }
    List<Target.Member> selected = target.members().stream()
        .filter(m -> names.contains(m.name())).toList();
    return target.withMembers(selected);
  }

  /** The mode name that asks for the automatic choice (the command line and the settings). */
  static final String AUTO = "auto";

  /** A string or a list of strings as a list; null as an empty list. */
  static List<String> strings(@Nullable Object value, String key,
      SearchSurface.Syntax syntax) throws CliFailure {
    if (value == null) {
      return List.of();
    }
    if (value instanceof String s) {
      return List.of(s);
    }
    if (value instanceof List<?> list && list.stream().allMatch(String.class::isInstance)) {
      return list.stream().map(String.class::cast).toList();
    }
    throw CliFailure.usage(syntax.name(key) + " must be a string or an array of strings, not "
        + describe(value));
  }

  /** Lines of context (an integer 0..{@value #MAX_CONTEXT}), or null when not given. */
  private static @Nullable Integer context(RawSearchArgs raw, String key,
      SearchSurface.Syntax syntax) throws CliFailure {
    Object value = raw.get(key);
    if (value == null) {
      return null;
    }
    String name = syntax.name(key);
    if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      if (n.doubleValue() >= 0 && n.doubleValue() <= MAX_CONTEXT) {
        return n.intValue();
      }
      throw CliFailure.usage("invalid " + name + " " + n + ": expected 0.." + MAX_CONTEXT);
    }
    throw CliFailure.usage(name + " must be an integer 0.." + MAX_CONTEXT + ", not "
        + describe(value));
  }

  /** Fails with a usage error naming the limit when {@code query} is over {@link #MAX_QUERY_BYTES}. */
  static void checkQueryLength(String query) throws CliFailure {
    long bytes = Utf8.byteLength(query);
    if (bytes > MAX_QUERY_BYTES) {
      throw CliFailure.usage("the query is " + bytes + " bytes (UTF-8): at most " + MAX_QUERY_BYTES
          + " bytes are allowed");
    }
  }

  /**
   * Validates a refresh policy given as {@code --max-refresh-files} (any command that has it).
   *
   * @param value the raw value, null for the default
   */
  public static int maxRefreshFiles(@Nullable Object value, int fallback,
      SearchSurface.Syntax syntax) throws CliFailure {
    if (value == null) {
      return fallback;
    }
    String name = syntax.name(RawSearchArgs.MAX_REFRESH_FILES);
    if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
      throw CliFailure.usage(name + " must be an integer, 0 or more, not " + describe(value));
    }
    if (n.doubleValue() < 0 || n.doubleValue() > Integer.MAX_VALUE) {
      throw CliFailure.usage("invalid " + name + " " + n + ": expected 0 or more");
    }
    return n.intValue();
  }

  private static String query(@Nullable Object value, SearchSurface.Syntax syntax)
      throws CliFailure {
    if (!(value instanceof String query) || query.isBlank()) {
      throw CliFailure.usage(syntax == SearchSurface.Syntax.COMMAND_LINE
          ? "missing QUERY: prism-index search \"QUERY\""
          : "query is required and must be a non-blank string");
    }
    checkQueryLength(query);
    return query;
  }

  private static @Nullable SearchMode mode(@Nullable Object value, SearchSurface surface)
      throws CliFailure {
    if (value == null) {
      return null;
    }
    List<SearchMode> modes = surface.modes();
    if (value instanceof String s) {
      for (SearchMode m : modes) {
        if (m.wireName().equals(s.toLowerCase(Locale.ROOT))) {
          return m;
        }
      }
      if (surface.syntax() == SearchSurface.Syntax.COMMAND_LINE) {
        throw CliFailure.usage("invalid --mode '" + s + "': expected " + names(modes, ", ")
            + " or " + AUTO);
      }
      boolean needsModel = SearchMode.fromWireName(s.toLowerCase(Locale.ROOT))
          .map(SearchMode::needsSemantic).orElse(false);
      throw CliFailure.usage("unsupported mode '" + s + "': expected one of "
          + names(modes, ", ") + (needsModel ? " (semantic and hybrid need an embedding model,"
              + " which this server does not have)" : ""));
    }
    throw CliFailure.usage(surface.syntax().name(RawSearchArgs.MODE) + " must be a string, one of "
        + names(modes, ", ") + ", not " + describe(value));
  }

  /** {@code a, b, c} or, with {@code last} " or ", {@code a, b or c}. */
  private static String names(List<SearchMode> modes, String last) {
    List<String> names = modes.stream().map(SearchMode::wireName).toList();
    if (names.size() < 2 || last.equals(", ")) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, names.size() - 1)) + last
        + names.get(names.size() - 1);
  }

  private static int limit(@Nullable Object value, SearchSurface.Syntax syntax)
      throws CliFailure {
    if (value == null) {
      return DEFAULT_LIMIT;
    }
    String name = syntax.name(RawSearchArgs.LIMIT);
    boolean cli = syntax == SearchSurface.Syntax.COMMAND_LINE;
    String range = (cli ? "" : "an integer ") + "1.." + MAX_LIMIT;
    if (value instanceof Number n) {
      double d = n.doubleValue();
      double max = cli ? Integer.MAX_VALUE : MAX_LIMIT;
      if (d == Math.rint(d) && d >= 1 && d <= max) {
        return (int) d;
      }
      throw CliFailure.usage("invalid " + name + " " + n + ": expected " + range);
    }
    throw CliFailure.usage(name + " must be " + range + ", not " + describe(value));
  }

  private static boolean bool(RawSearchArgs raw, String key, boolean fallback,
      SearchSurface.Syntax syntax) throws CliFailure {
    Object v = raw.get(key);
    if (v == null) {
      return fallback;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    throw CliFailure.usage(syntax.name(key) + " must be true or false, not " + describe(v));
  }

  private static void unknown(RawSearchArgs raw, SearchSurface.Syntax syntax) throws CliFailure {
    Set<String> known = syntax.arguments();
    for (String key : raw.keys()) {
      if (!known.contains(key)) {
        throw CliFailure.usage("unknown argument '" + key + "': expected "
            + known.stream().map(syntax::name).sorted().collect(Collectors.joining(", ")));
      }
    }
  }

  /** A JSON value's type and value, for error messages. */
  public static String describe(Object v) {
    String type = v instanceof String ? "a string" : v instanceof Number ? "a number"
        : v instanceof Boolean ? "a boolean" : v instanceof List ? "an array"
        : v instanceof Map ? "an object" : v.getClass().getSimpleName();
    String shown = v instanceof String s ? "'" + s + "'" : String.valueOf(v);
    return type + " (" + (shown.length() > 60 ? shown.substring(0, 60) + "..." : shown) + ")";
  }
}
