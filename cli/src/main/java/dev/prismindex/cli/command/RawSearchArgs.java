package dev.prismindex.cli.command;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The raw arguments of one search, exactly as a surface received them, before any check: step one
 * of the two-step shape (raw arguments, then {@link SearchRequests#validate} into a
 * {@link SearchRequest}). The command line puts picocli's typed values here, the MCP tool the JSON
 * values of its call (strings, numbers, booleans, lists, objects); the validator checks their
 * types itself, so a wrongly typed JSON value is a usage error like any other. A key that is absent
 * (or put with a null value) takes its default.
 */
public final class RawSearchArgs {

  /** The query (a string). */
  public static final String QUERY = "query";
  /** The mode's wire name (a string), case-insensitive. */
  public static final String MODE = "mode";
  /**
   * Repository-relative directories or files, any of which a hit may lie in (a string, or a list
   * of strings).
   */
  public static final String PATH = "path";
  /** Languages a hit's file must have (a string, or a list of strings). */
  public static final String TYPE = "type";
  /** Gitignore-style globs, a leading {@code !} excluding (a string, or a list of strings). */
  public static final String GLOB = "glob";
  /** Lines of context before and after each hit (an integer, 0..20). */
  public static final String CONTEXT = "context";
  /** Lines of context before each hit, overriding {@link #CONTEXT} (an integer, 0..20). */
  public static final String BEFORE = "beforeContext";
  /** Lines of context after each hit, overriding {@link #CONTEXT} (an integer, 0..20). */
  public static final String AFTER = "afterContext";
  /** The most hits (an integer). */
  public static final String LIMIT = "limit";
  /** Exact case, exact modes only (a boolean). */
  public static final String CASE_SENSITIVE = "caseSensitive";
  /** Case ignored (a boolean; the ranked modes ignore case anyway). */
  public static final String IGNORE_CASE = "ignoreCase";
  /** Case ignored unless the pattern has an upper-case letter (a boolean). */
  public static final String SMART_CASE = "smartCase";
  /** Regular-expression patterns, any of which may match (a string, or a list of strings). */
  public static final String PATTERNS = "patterns";
  /** The query is a regular expression (a boolean; the same as mode regex). */
  public static final String REGEX = "regex";
  /** The patterns are fixed strings (a boolean; the literal mode). */
  public static final String FIXED_STRINGS = "fixedStrings";
  /** Whole-word matches only (a boolean; exact modes). */
  public static final String WORDS = "wordRegexp";
  /**
   * The repositories of a workspace to search: names and globs (a string, or a list of strings;
   * the command line's {@code --repos}).
   */
  public static final String REPOS = "repos";
  /** Whether to catch up on changed files first (a boolean; default true). */
  public static final String REFRESH = "refresh";
  /** The largest change set re-indexed before answering (an integer, 0 or more). */
  public static final String MAX_REFRESH_FILES = "maxRefreshFiles";

  private final Map<String, Object> values = new LinkedHashMap<>();

  /** The arguments of a JSON call, keys as given (unknown keys are the validator's to reject). */
  public static RawSearchArgs of(@Nullable Map<String, ?> arguments) {
    RawSearchArgs raw = new RawSearchArgs();
    if (arguments != null) {
      arguments.forEach(raw::put);
    }
    return raw;
  }

  /** Sets one argument; a null value leaves it absent. */
  public RawSearchArgs put(String key, @Nullable Object value) {
    if (value != null) {
      values.put(key, value);
    }
    return this;
  }

  /** The value of {@code key}, or null when absent. */
  public @Nullable Object get(String key) {
    return values.get(key);
  }

  /** The keys given, in the order given. */
  public Set<String> keys() {
    return Collections.unmodifiableSet(values.keySet());
  }
}
