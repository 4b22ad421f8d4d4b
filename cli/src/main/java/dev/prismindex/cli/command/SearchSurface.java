package dev.prismindex.cli.command;

import dev.prismindex.repository.SearchMode;
import java.util.List;
import java.util.Set;

/**
 * Who asks for a search, as far as {@link SearchRequests#validate} needs to know: how errors name
 * the arguments, which modes are offered, whether output is JSON, and the refresh policy when the
 * arguments don't set one.
 *
 * @param syntax how the surface spells its arguments
 * @param modes the modes offered, in the order error messages list them
 * @param json whether output is JSON
 * @param maxRefreshFiles the refresh policy when none is given
 */
public record SearchSurface(Syntax syntax, List<SearchMode> modes, boolean json,
    int maxRefreshFiles) {

  /** The modes of {@code prism-index search --mode}. */
  public static final List<SearchMode> COMMAND_LINE_MODES = List.of(SearchMode.LEXICAL,
      SearchMode.SEMANTIC, SearchMode.HYBRID, SearchMode.LITERAL, SearchMode.REGEX);

  public SearchSurface {
    modes = List.copyOf(modes);
  }

  /** {@code prism-index search} (also through the resident server, which runs the same line). */
  public static SearchSurface commandLine(boolean json) {
    return new SearchSurface(Syntax.COMMAND_LINE, COMMAND_LINE_MODES, json,
        SearchRequests.DEFAULT_MAX_REFRESH_FILES);
  }

  /** How a surface spells its arguments, in error messages and in what it accepts. */
  public enum Syntax {
    /**
     * Options: {@code --limit}, {@code --mode}, {@code --path}, {@code --type}, {@code --glob},
     * {@code --context}, {@code --case-sensitive}, {@code --repos}, ...
     */
    COMMAND_LINE,
    /**
     * JSON tool arguments: {@code maxMatches}, {@code mode}, {@code path}, {@code type},
     * {@code glob}, {@code context}, {@code caseSensitive}, {@code repos}.
     */
    TOOL_ARGUMENTS;

    /** The argument named by a {@link RawSearchArgs} key, as this surface spells it. */
    public String name(String key) {
      if (this == TOOL_ARGUMENTS) {
        // The contract's name (core's repo_search) for the most hits.
        return key.equals(RawSearchArgs.LIMIT) ? "maxMatches" : key;
      }
      return switch (key) {
        case RawSearchArgs.BEFORE -> "--before-context";
        case RawSearchArgs.AFTER -> "--after-context";
        case RawSearchArgs.CASE_SENSITIVE -> "--case-sensitive";
        case RawSearchArgs.IGNORE_CASE -> "-i";
        case RawSearchArgs.SMART_CASE -> "-S";
        case RawSearchArgs.PATTERNS -> "-e";
        case RawSearchArgs.FIXED_STRINGS -> "-F";
        case RawSearchArgs.WORDS -> "-w";
        case RawSearchArgs.MAX_REFRESH_FILES -> "--max-refresh-files";
        case RawSearchArgs.REFRESH -> "--no-refresh";
        case RawSearchArgs.QUERY -> "QUERY";
        case RawSearchArgs.REPOS -> "--repos";
        default -> "--" + key;
      };
    }

    /** The keys a caller of this surface may give. */
    Set<String> arguments() {
      return this == TOOL_ARGUMENTS
          ? Set.of(RawSearchArgs.QUERY, RawSearchArgs.MODE, RawSearchArgs.PATH,
              RawSearchArgs.LIMIT, RawSearchArgs.CASE_SENSITIVE, RawSearchArgs.TYPE,
              RawSearchArgs.GLOB, RawSearchArgs.CONTEXT, RawSearchArgs.REPOS)
          : Set.of(RawSearchArgs.QUERY, RawSearchArgs.MODE, RawSearchArgs.PATH,
              RawSearchArgs.LIMIT, RawSearchArgs.CASE_SENSITIVE, RawSearchArgs.REFRESH,
              RawSearchArgs.MAX_REFRESH_FILES, RawSearchArgs.TYPE, RawSearchArgs.GLOB,
              RawSearchArgs.CONTEXT, RawSearchArgs.BEFORE, RawSearchArgs.AFTER,
              RawSearchArgs.IGNORE_CASE, RawSearchArgs.SMART_CASE, RawSearchArgs.PATTERNS,
              RawSearchArgs.REGEX, RawSearchArgs.FIXED_STRINGS, RawSearchArgs.WORDS,
              RawSearchArgs.REPOS);
    }
  }
}
