package dev.prismindex.cli.command;

import dev.prismindex.cli.command.CompletionValues.BackendNames;
import dev.prismindex.cli.command.CompletionValues.ColourNames;
import dev.prismindex.cli.command.CompletionValues.ModeNames;
import dev.prismindex.cli.command.CompletionValues.TypeNames;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;

/**
 * Step one of a command: the raw flags exactly as picocli parses them, with no meaning attached
 * beyond their types. {@link Requests} turns them into validated requests (step two).
 */
public final class Flags {
  private Flags() {}

  /**
   * {@code --repos}, one option for search and status: the repositories of a workspace, or of an
   * organisation with {@code --backend opensearch}, to keep (null when not given).
   */
  static final class ReposOption {
    @Option(names = "--repos", paramLabel = "NAMES", split = ",",
        description = "Only these repositories of the workspace, or with --backend opensearch of"
            + " the organisation: names and globs (* any characters, a leading ! leaves out);"
            + " repeat or separate with commas.")
    @Nullable List<String> names;
  }

  /** The top-level command and the options every subcommand inherits. */
  @Command(name = "prism-index", mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class, sortOptions = false,
      subcommands = {IndexFlags.class, SearchFlags.class, StatusFlags.class, ServeFlags.class,
          McpFlags.class, DoctorFlags.class, CompletionFlags.class},
      description = {"A fast, trustworthy search surface for a source repository.", "",
          "Exit codes: 0 ok (zero or more hits), 1 other failure, 2 bad usage,",
          "3 index missing, corrupt, incompatible or stale beyond policy,",
          "4 embedding model unavailable for semantic or hybrid search."})
  public static final class RootFlags {
    @Option(names = "--repo", paramLabel = "DIR", scope = ScopeType.INHERIT,
        description = "Repository root (default: the nearest directory above the current one that"
            + " holds .git, else the current directory); repeat it to search several"
            + " repositories as one workspace.")
    @Nullable List<String> repos;

    @Option(names = "--workspace", paramLabel = "FILE", scope = ScopeType.INHERIT,
        description = "A workspace file listing repositories searched as one (default: the"
            + " nearest " + WorkspaceFile.NAME + " above the current directory, unless a"
            + " repository root comes first).")
    @Nullable String workspace;

    @Option(names = "--index-dir", paramLabel = "DIR", scope = ScopeType.INHERIT,
        description = "Index directory (default: $" + Environment.INDEX_DIR_VARIABLE
            + ", else <repo>/.prism-index).")
    @Nullable String indexDir;

    @Option(names = "--backend", paramLabel = "local|opensearch", scope = ScopeType.INHERIT,
        completionCandidates = BackendNames.class,
        description = "Where the index lives: local (default: $" + ClusterBackend.BACKEND_VARIABLE
            + ", else local) or opensearch, a cluster (index, search, status).")
    @Nullable String backend;

    @Option(names = "--opensearch-url", paramLabel = "URL", scope = ScopeType.INHERIT,
        description = "The OpenSearch cluster's URL with --backend opensearch (default: $"
            + ClusterBackend.URL_VARIABLE + "); credentials only from $"
            + ClusterBackend.USER_VARIABLE + " and $" + ClusterBackend.PASSWORD_VARIABLE + ".")
    @Nullable String openSearchUrl;

    @Option(names = "--organisation", paramLabel = "NAME", scope = ScopeType.INHERIT,
        description = "With --backend opensearch: the organisation whose repositories --all-repos,"
            + " --repos, --repo-name and --repo-list mean (default: $"
            + OrganisationCommand.ORGANISATION_VARIABLE + ", else repo).")
    @Nullable String organisation;

    @Option(names = "--debug", scope = ScopeType.INHERIT,
        description = "Log the engine's debug messages and print stack traces of errors.")
    boolean debug;
  }

  /** {@code prism-index index}. */
  @Command(name = "index", mixinStandardHelpOptions = true, sortOptions = false,
      versionProvider = VersionProvider.class,
      description = {"Build the index, or bring it up to date incrementally.", "",
          "On a terminal, progress is shown on stderr; at the end a summary of the counters."})
  static final class IndexFlags {
    @Option(names = "--full", description = "Rebuild from scratch (also repairs a corrupt or"
        + " incompatible index).")
    boolean full;

    @Option(names = "--verify", description = "Hash every file instead of trusting unchanged size"
        + " and modification time.")
    boolean verify;

    @Option(names = "--no-semantic", description = "Do not compute embeddings (lexical and literal"
        + " search only).")
    boolean noSemantic;

    @Option(names = "--model", paramLabel = "MODEL", description = "The embedding model, by id or"
        + " name: code (the default: prism-index's static code model, embedded as the index is"
        + " built) or minilm (all-MiniLM-L6-v2 on ONNX Runtime, embedded after the lexical index,"
        + " far slower). An index keeps its model; changing it needs --full.")
    @Nullable String model;

    @Option(names = "--json", description = "Print one JSON summary object instead of text.")
    boolean json;

    @Option(names = "--repo-name", paramLabel = "NAME", description = "With --backend"
        + " opensearch: index the repository into the organisation under this name (lower case,"
        + " parts joined by /), so that --all-repos finds it.")
    @Nullable String repoName;

    @Option(names = "--repo-list", paramLabel = "FILE", description = "With --backend opensearch:"
        + " index every repository the file lists into the organisation, one per line (DIR, or"
        + " NAME DIR; # comments), several at a time.")
    @Nullable String repoList;

    @Option(names = "--parallel", paramLabel = "N", description = "With --repo-list: repositories"
        + " indexed at once (default: 2).")
    @Nullable Integer parallel;

    @Option(names = "--bulk-in-flight", paramLabel = "N", description = "With --repo-list: bulk"
        + " requests in flight at most, across all repositories (default: 2).")
    @Nullable Integer bulkInFlight;

    @Option(names = "--shards", paramLabel = "N", description = "With --repo-name or --repo-list:"
        + " primary shards of the organisation's index when this run creates it (default: 1;"
        + " an existing index keeps its own).")
    @Nullable Integer shards;
  }

  /** {@code prism-index search}. */
  @Command(name = "search", mixinStandardHelpOptions = true, sortOptions = false,
      versionProvider = VersionProvider.class,
      description = {"Search the index; hits are ranked path:line locations with a snippet.", "",
          "Before answering, the tree is checked for changes: up to --max-refresh-files changed"
              + " files are re-indexed first; more end with exit code 3.", "",
          "Defaults: options given here win over $PRISM_INDEX_MODE, $PRISM_INDEX_LIMIT and"
              + " $PRISM_INDEX_CONTEXT, which win over <repo>/" + SearchConfig.FILE_NAME
              + ", then the user's $XDG_CONFIG_HOME/prism-index/config.toml (default"
              + " ~/.config/prism-index/config.toml): [search] mode, limit, context, exclude."
              + " .prismignore files keep paths out of the index. See docs/cli.md."})
  static final class SearchFlags {
    /**
     * The query: one argument. Every word that is not an option lands here (so that a query of
     * several unquoted words can be named in the error, see {@code Arguments}); a query that
     * starts with {@code -} goes after {@code --}, or anywhere it cannot be an option.
     */
    @Parameters(arity = "0..*", paramLabel = "QUERY",
        description = "Free text, an identifier, an exact string (-F, --mode literal) or a regular"
            + " expression (--regex; -e gives patterns instead); one"
            + " argument (quote several words). '-' reads it from stdin; after '--' it may start"
            + " with '-'.")
    @Nullable List<String> query;

    @Option(names = "--all-repos", description = "With --backend opensearch: search every"
        + " repository of the organisation (that this caller may search) at once, one ranking;"
        + " each hit names its repository.")
    boolean allRepos;

    @Mixin
    ReposOption reposOption = new ReposOption();

    @Option(names = "--json", description = "Print NDJSON: one object per hit, nothing else.")
    boolean json;

    @Option(names = "--limit", paramLabel = "N",
        description = "Most hits to print: 1..10000 for the ranked modes (default: 10); the exact"
            + " modes (literal, regex) print every match unless given.")
    @Nullable Integer limit;

    @Option(names = "--mode", paramLabel = "MODE", completionCandidates = ModeNames.class,
        description = "lexical, semantic, hybrid, literal or regex (default: hybrid when a model"
            + " is present and the index has embeddings, else lexical).")
    @Nullable String mode;

    // grep's and ripgrep's habits (docs/cli.md, "grep's habits"): output, then matching.

    @Option(names = {"-n", "--line-number"},
        description = "grep's layout: one path:line:text line per hit, no header (as grep -n).")
    boolean lineNumber;

    @Option(names = {"-l", "--files-with-matches"},
        description = "Print only the paths of the files with hits, one per line.")
    boolean filesWithMatches;

    @Option(names = {"-c", "--count"},
        description = "Print path:count for each file with hits, one per line.")
    boolean count;

    @Option(names = {"-m", "--max-count"}, paramLabel = "NUM",
        description = "At most NUM hits from each file (as grep -m).")
    @Nullable Integer maxCount;

    @Option(names = {"--color", "--colour"}, paramLabel = "WHEN",
        completionCandidates = ColourNames.class,
        description = "auto (default: on a terminal, unless NO_COLOR is set or TERM=dumb), always"
            + " or never.")
    @Nullable String color;

    @Option(names = "--path", paramLabel = "SCOPE",
        description = "Only hits in this repository-relative directory or file; repeat for"
            + " several (any of them).")
    @Nullable List<String> paths;

    @Option(names = {"-t", "--type"}, paramLabel = "LANG", split = ",",
        completionCandidates = TypeNames.class,
        description = "Only files of this language (java, python, ...; see --type-list); repeat"
            + " or separate with commas for several.")
    @Nullable List<String> types;

    @Option(names = "--type-list", description = "List the languages --type accepts, with the"
        + " file names of each, and exit.")
    boolean typeList;

    @Option(names = {"-g", "--glob"}, paramLabel = "GLOB",
        description = "Only files matching this gitignore-style glob ('*.java', 'src/**/test/');"
            + " a leading ! excludes ('!vendor/'). Repeatable; the last matching glob decides.")
    @Nullable List<String> globs;

    @Option(names = {"-C", "--context"}, paramLabel = "N",
        description = "Show N lines before and after each hit, 0.." + SearchRequests.MAX_CONTEXT
            + " (human output grep-style; NDJSON adds before, text and after).")
    @Nullable Integer context;

    @Option(names = {"-B", "--before-context"}, paramLabel = "N",
        description = "Show N lines before each hit (overrides -C for that side).")
    @Nullable Integer before;

    @Option(names = {"-A", "--after-context"}, paramLabel = "N",
        description = "Show N lines after each hit (overrides -C for that side).")
    @Nullable Integer after;

    @Option(names = "--regex", description = "QUERY is a regular expression (RE2 syntax, as"
        + " ripgrep's): the same as --mode regex. Every match is printed, as grep does.")
    boolean regex;

    @Option(names = {"-e", "--regexp"}, paramLabel = "PATTERN",
        description = "A regular expression to search for (with -F a fixed string); repeat for"
            + " several (any of them matches). Also for a pattern that starts with '-'.")
    @Nullable List<String> patterns;

    @Option(names = {"-F", "--fixed-strings"}, description = "The patterns are fixed strings,"
        + " not regular expressions (the literal mode).")
    boolean fixedStrings;

    @Option(names = {"-w", "--word-regexp"}, description = "Only matches with no word character"
        + " right before or after them (exact modes).")
    boolean wordRegexp;

    /** The last of -i, -s/--case-sensitive and -S given (ripgrep's rule: the last one wins). */
    @Nullable String caseFlag;

    @Option(names = {"-i", "--ignore-case"}, description = "Ignore case (the literal mode's"
        + " default; the ranked modes always ignore it).")
    void ignoreCase(boolean on) {
      caseFlag = on ? RawSearchArgs.IGNORE_CASE : caseFlag;
    }

    @Option(names = {"-s", "--case-sensitive"}, description = "Match case exactly (the regex"
        + " mode's default; exact modes only).")
    void caseSensitive(boolean on) {
      caseFlag = on ? RawSearchArgs.CASE_SENSITIVE : caseFlag;
    }

    @Option(names = {"-S", "--smart-case"}, description = "Ignore case unless the pattern has an"
        + " upper-case letter (exact modes).")
    void smartCase(boolean on) {
      caseFlag = on ? RawSearchArgs.SMART_CASE : caseFlag;
    }

    @Option(names = "--no-refresh", description = "Search the index as it is, even if files"
        + " changed since it was built.")
    boolean noRefresh;

    @Option(names = "--max-refresh-files", paramLabel = "N",
        description = "Re-index at most this many changed files before answering (default: "
            + SearchRequests.DEFAULT_MAX_REFRESH_FILES + ").")
    @Nullable Integer maxRefreshFiles;

    @Option(names = "--no-config", description = "Ignore the configuration files (the"
        + " environment variables still apply).")
    boolean noConfig;
  }

  /** {@code prism-index status}. */
  @Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
      versionProvider = VersionProvider.class,
      description = {"Show the state of the index: files, chunks, semantic coverage, model,"
          + " revision, update time, size and files changed since the last run.", "",
          "Exits 3 when a search could not be answered (index missing, corrupt, incompatible or"
              + " stale beyond --max-refresh-files)."})
  static final class StatusFlags {
    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = "--all-repos", description = "With --backend opensearch: list every"
        + " repository of the organisation this caller may search, with its record.")
    boolean allRepos;

    @Mixin
    ReposOption reposOption = new ReposOption();

    @Option(names = "--verify", description = "Also run Lucene's CheckIndex tests on every segment"
        + " (without it, status verifies the checksums of the index files).")
    boolean verify;

    @Option(names = "--max-refresh-files", paramLabel = "N",
        description = "The refresh policy to judge staleness by (default: "
            + SearchRequests.DEFAULT_MAX_REFRESH_FILES + ").")
    @Nullable Integer maxRefreshFiles;
  }

  /** {@code prism-index serve}. */
  @Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
      versionProvider = VersionProvider.class,
      description = {"Keep the index and the model open and answer search and status from other"
          + " prism-index processes (the resident server).", "",
          "One server per index, on a loopback port with a secret token in"
              + " <index-dir>/serve/serve.port (owner only). search and status use it when it"
              + " runs, with the same output, and start one in the background when none runs"
              + " (PRISM_INDEX_SERVE=0: never). While it runs, it watches the repository and keeps"
              + " the index current. Stops after --idle-timeout without a request, on --stop, or"
              + " on SIGTERM/SIGINT."})
  static final class ServeFlags {
    @Option(names = "--idle-timeout", paramLabel = "DURATION",
        description = "Stop after this long without a request: 90s, 15m, 1h, 500ms; 0 never"
            + " (default: 15m).")
    @Nullable String idleTimeout;

    @Option(names = "--stop", description = "Stop the server of this repository's index, if one"
        + " runs, and exit.")
    boolean stop;

    @Option(names = "--list", description = "List every running server of this user (pid, port,"
        + " memory, uptime, repository, index) and exit.")
    boolean list;

    @Option(names = "--stop-all", description = "Stop every running server of this user and"
        + " exit.")
    boolean stopAll;

    @Option(names = "--json", description = "With --list: one JSON object per server.")
    boolean json;

    /** Set by a client that starts the server in the background (not for people). */
    @Option(names = "--background", hidden = true)
    boolean background;
  }

  /** {@code prism-index mcp}. */
  @Command(name = "mcp", mixinStandardHelpOptions = true, sortOptions = false,
      versionProvider = VersionProvider.class,
      description = {"Serve the repository to an agent as a Model Context Protocol server on stdio"
          + " (tools repo_search, index_status, reindex; see docs/agents.md).", "",
          "Stdout carries only the protocol; logs go to stderr. The index and the model stay open"
              + " between calls; the server ends when stdin closes."})
  static final class McpFlags {
    @Option(names = "--max-refresh-files", paramLabel = "N",
        description = "Re-index at most this many changed files before answering a search"
            + " (default: " + SearchRequests.DEFAULT_MAX_REFRESH_FILES + ").")
    @Nullable Integer maxRefreshFiles;
  }

  /** {@code prism-index doctor}. */
  @Command(name = "doctor", mixinStandardHelpOptions = true, sortOptions = false,
      versionProvider = VersionProvider.class,
      description = {"Check what prism-index needs here: Java, file name encoding, the native"
          + " library, the embedding model, file-watch limits, running servers and the index's"
          + " health, with a fix for each problem.", "",
          "Exits 1 when something is broken, 0 otherwise (warnings say what works less well)."})
  static final class DoctorFlags {
    @Option(names = "--json", description = "Print one JSON object: checks (name, status, detail,"
        + " fix), problems, warnings.")
    boolean json;
  }

  /** {@code prism-index completion}. */
  @Command(name = "completion", mixinStandardHelpOptions = true, sortOptions = false,
      versionProvider = VersionProvider.class,
      description = {"Print the shell completion script of prism-index for bash, zsh or fish.", "",
          "bash (~/.bashrc):   source <(prism-index completion bash)",
          "zsh (~/.zshrc):     source <(prism-index completion zsh)",
          "fish:               prism-index completion fish"
              + " > ~/.config/fish/completions/prism-index.fish",
          "", "The script is generated from this command line, so it always offers its current"
              + " commands and options."})
  static final class CompletionFlags {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SHELL",
        completionCandidates = Requests.Shell.Names.class, description = "bash, zsh or fish.")
    @Nullable String shell;
  }
}
