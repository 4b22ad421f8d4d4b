package dev.prismindex.cli.command;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;

/**
 * Step one of a command: the raw flags exactly as picocli parses them, with no meaning attached
 * beyond their types. {@link Requests} turns them into validated requests (step two).
 */
public final class Flags {
  private Flags() {}

  /** The top-level command and the options every subcommand inherits. */
  @Command(name = "prism-index", mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class, sortOptions = false,
      subcommands = {IndexFlags.class, SearchFlags.class, StatusFlags.class, ServeFlags.class,
          McpFlags.class, CompletionFlags.class},
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
        description = "Where the index lives: local (default: $" + ClusterBackend.BACKEND_VARIABLE
            + ", else local) or opensearch, a cluster (index, search, status).")
    @Nullable String backend;

    @Option(names = "--opensearch-url", paramLabel = "URL", scope = ScopeType.INHERIT,
        description = "The OpenSearch cluster's URL with --backend opensearch (default: $"
            + ClusterBackend.URL_VARIABLE + "); credentials only from $"
            + ClusterBackend.USER_VARIABLE + " and $" + ClusterBackend.PASSWORD_VARIABLE + ".")
    @Nullable String openSearchUrl;

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

    @Option(names = "--json", description = "Print one JSON summary object instead of text.")
    boolean json;
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
    @Parameters(index = "0", arity = "0..1", paramLabel = "QUERY",
        description = "Free text, an identifier, or (with --mode literal) an exact string.")
    @Nullable String query;

    @Option(names = "--json", description = "Print NDJSON: one object per hit, nothing else.")
    boolean json;

    @Option(names = {"-n", "--limit"}, paramLabel = "N",
        description = "Most hits to print, 1..10000 (default: 10).")
    @Nullable Integer limit;

    @Option(names = {"-m", "--mode"}, paramLabel = "MODE",
        description = "lexical, semantic, hybrid or literal (default: hybrid when a model is"
            + " present and the index has embeddings, else lexical).")
    @Nullable String mode;

    @Option(names = "--path", paramLabel = "SCOPE",
        description = "Only hits in this repository-relative directory or file; repeat for"
            + " several (any of them).")
    @Nullable List<String> paths;

    @Option(names = {"-t", "--type"}, paramLabel = "LANG", split = ",",
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

    @Option(names = "--case-sensitive", description = "Match case exactly (literal mode only).")
    boolean caseSensitive;

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

    @Option(names = "--repos", paramLabel = "NAMES", split = ",",
        description = "In a workspace, only these repositories: names and globs (* any"
            + " characters, a leading ! leaves out); repeat or separate with commas.")
    @Nullable List<String> repos;
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

    @Option(names = "--verify", description = "Also run Lucene's CheckIndex tests on every segment"
        + " (without it, status verifies the checksums of the index files).")
    boolean verify;

    @Option(names = "--repos", paramLabel = "NAMES", split = ",",
        description = "In a workspace, only these repositories: names and globs (* any"
            + " characters, a leading ! leaves out); repeat or separate with commas.")
    @Nullable List<String> repos;

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

  /** {@code --version}: the project version recorded in the jar at build time. */
  public static final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"prism-index " + version()};
    }

    public static String version() {
      Properties p = new Properties();
      try (InputStream in = Flags.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          p.load(in);
        }
      } catch (IOException e) {
        // fall through to "unknown"
      }
      return p.getProperty("version", "unknown");
    }
  }
}
