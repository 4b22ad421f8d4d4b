package dev.prismindex.cli.command;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.prismindex.engine.FileFilter;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The defaults of {@code search} that do not come from its options, each setting from the first
 * place that sets it: the environment variables {@value #MODE_VARIABLE}, {@value #LIMIT_VARIABLE}
 * and {@value #CONTEXT_VARIABLE}; the repository's {@value #FILE_NAME} (at the repository root);
 * the user's {@code $XDG_CONFIG_HOME/prism-index/config.toml} (default
 * {@code ~/.config/prism-index/config.toml}). Options on the command line win over all of them
 * (as {@code --index-dir} wins over {@code PRISM_INDEX_DIR}). The files are TOML, read with
 * Jackson's TOML module, with one table:
 *
 * <pre>
 * [search]
 * mode = "lexical"         # lexical, semantic, hybrid, literal, regex or auto
 * limit = 20               # 1..1000
 * context = 2              # 0..20 lines around each hit (-C)
 * exclude = ["vendor/", "*.min.js"]   # gitignore-style globs every search leaves out
 * </pre>
 *
 * Every value is checked here, so a bad one is a usage error (exit code 2) naming its file and
 * line, or its variable, not an option the user never gave.
 *
 * @param mode the default mode, or null for none (also for {@code auto})
 * @param modeSet whether some place set the mode ({@code auto} sets it to null)
 * @param limit the default limit, or null
 * @param context the default lines of context on both sides, or null
 * @param exclude globs every search leaves out (without a leading {@code !}), possibly empty
 */
public record SearchConfig(@Nullable SearchMode mode, boolean modeSet, @Nullable Integer limit,
    @Nullable Integer context, List<String> exclude) {

  /** The repository's configuration file, at the repository root. */
  public static final String FILE_NAME = ".prism-index.toml";
  /** The default mode ({@code lexical}, ..., or {@code auto}). */
  public static final String MODE_VARIABLE = "PRISM_INDEX_MODE";
  /** The default limit. */
  public static final String LIMIT_VARIABLE = "PRISM_INDEX_LIMIT";
  /** The default lines of context. */
  public static final String CONTEXT_VARIABLE = "PRISM_INDEX_CONTEXT";
  /** The variables the user's file is found by. */
  public static final List<String> LOCATION_VARIABLES = List.of("XDG_CONFIG_HOME", "HOME");

  /** No defaults at all. */
  public static final SearchConfig NONE = new SearchConfig(null, false, null, null, List.of());

  private static final String TABLE = "search";
  private static final List<String> KEYS = List.of("mode", "limit", "context", "exclude");

  /**
   * The TOML reader, made when a file is read: a Jackson mapper's first use costs a one-shot search
   * tens of milliseconds (its date format loads the locale data), and most searches have no file.
   */
  private static final class Toml {
    static final TomlMapper MAPPER = new TomlMapper();
  }

  public SearchConfig {
    exclude = List.copyOf(exclude);
  }

  /** The mode's name in the vocabulary of the settings. */
  private static final String AUTO = "auto";

  /**
   * The defaults for a search of the repository at {@code root}.
   *
   * @param files whether to read the configuration files ({@code --no-config}: false)
   * @param modes the modes a setting may name
   * @throws CliFailure with {@link ExitCode#USAGE} for a file that cannot be read or parsed, an
   *     unknown setting, or a value of the wrong type or out of range
   */
  public static SearchConfig load(Path root, Environment env, boolean files,
      List<SearchMode> modes) throws CliFailure {
    List<Source> sources = new ArrayList<>();
    sources.add(Source.environment(env));
    if (files) {
      sources.add(Source.file(root.resolve(FILE_NAME)));
      Path user = userFile(env);
      if (user != null) {
        sources.add(Source.file(user));
      }
    }
    SearchMode mode = null;
    boolean modeSet = false;
    Integer limit = null;
    Integer context = null;
    List<String> exclude = null;
    for (Source s : sources) {
      if (!modeSet && s.values.get("mode") != null) {
        String m = s.string("mode");
        modeSet = true;
        mode = mode(m, modes, s);
      }
      if (limit == null && s.values.get("limit") != null) {
        limit = s.integer("limit", 1, SearchRequests.MAX_LIMIT);
      }
      if (context == null && s.values.get("context") != null) {
        context = s.integer("context", 0, SearchRequests.MAX_CONTEXT);
      }
      if (exclude == null && s.values.get("exclude") != null) {
        exclude = s.globs("exclude");
      }
    }
    return new SearchConfig(mode, modeSet, limit, context, exclude == null ? List.of() : exclude);
  }

  /**
   * The user's configuration file: {@code $XDG_CONFIG_HOME/prism-index/config.toml}, else
   * {@code $HOME/.config/prism-index/config.toml}; null when neither variable is set.
   */
  public static @Nullable Path userFile(Environment env) {
    try {
      String xdg = env.variable("XDG_CONFIG_HOME");
      if (xdg != null && Path.of(xdg).isAbsolute()) {
        return Path.of(xdg, "prism-index", "config.toml");
      }
      String home = env.variable("HOME");
      return home == null ? null : Path.of(home, ".config", "prism-index", "config.toml");
    } catch (InvalidPathException e) {
      return null;
    }
  }

  private static @Nullable SearchMode mode(String value, List<SearchMode> modes, Source s)
      throws CliFailure {
    String lower = value.toLowerCase(Locale.ROOT);
    if (lower.equals(AUTO)) {
      return null;
    }
    for (SearchMode m : modes) {
      if (m.wireName().equals(lower)) {
        return m;
      }
    }
    List<String> names = new ArrayList<>(modes.stream().map(SearchMode::wireName).toList());
    names.add(AUTO);
    throw s.failure("mode", "invalid mode '" + value + "': expected "
        + String.join(", ", names.subList(0, names.size() - 1)) + " or " + AUTO);
  }

  /** One place settings come from: its values by key, and how errors name it. */
  private static final class Source {
    final Map<String, Object> values = new java.util.HashMap<>();
    /** The file, or null for the environment. */
    final @Nullable Path file;
    final @Nullable String text;

    private Source(@Nullable Path file, @Nullable String text) {
      this.file = file;
      this.text = text;
    }

    static Source environment(Environment env) {
      Source s = new Source(null, null);
      s.put("mode", env.variable(MODE_VARIABLE));
      s.put("limit", env.variable(LIMIT_VARIABLE));
      s.put("context", env.variable(CONTEXT_VARIABLE));
      return s;
    }

    private void put(String key, @Nullable Object value) {
      if (value != null) {
        values.put(key, value);
      }
    }

    static Source file(Path path) throws CliFailure {
      String text;
      try {
        if (!Files.isRegularFile(path)) {
          if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(path)) {
            throw CliFailure.usage(path + ": not a regular file");
          }
          return new Source(path, null);
        }
        text = Files.readString(path);
      } catch (NoSuchFileException e) {
        return new Source(path, null);
      } catch (CharacterCodingException e) {
        throw CliFailure.usage(path + ": not UTF-8 text");
      } catch (IOException e) {
        throw CliFailure.usage("cannot read " + path + ": " + e.getMessage());
      }
      Source s = new Source(path, text);
      JsonNode root;
      try {
        root = Toml.MAPPER.readTree(text);
      } catch (JacksonException e) {
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? path.toString()
            : path + ":" + at.getLineNr();
        throw CliFailure.usage(where + ": invalid TOML: " + firstLine(e.getOriginalMessage()));
      }
      if (root == null || root.isMissingNode() || root.isNull()) {
        return s;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getKey().equals(TABLE)) {
          throw s.failureAt(lineOf(text, "", e.getKey()), "unknown setting '" + e.getKey()
              + "' (settings go in the [" + TABLE + "] table: " + String.join(", ", KEYS) + ")");
        }
        if (!e.getValue().isObject()) {
          throw s.failureAt(lineOf(text, "", TABLE), "'" + TABLE + "' must be a table ([" + TABLE
              + "])");
        }
        for (Iterator<Map.Entry<String, JsonNode>> keys = e.getValue().fields();
            keys.hasNext(); ) {
          Map.Entry<String, JsonNode> k = keys.next();
          if (!KEYS.contains(k.getKey())) {
            throw s.failure(k.getKey(), "unknown setting '" + TABLE + "." + k.getKey()
                + "' (expected " + String.join(", ", KEYS) + ")");
          }
          s.values.put(k.getKey(), k.getValue());
        }
      }
      return s;
    }

    /** The name of a setting in messages: the variable, or {@code search.key}. */
    String name(String key) {
      if (file == null) {
        return switch (key) {
          case "mode" -> MODE_VARIABLE;
          case "limit" -> LIMIT_VARIABLE;
          default -> CONTEXT_VARIABLE;
        };
      }
      return TABLE + "." + key;
    }

    String string(String key) throws CliFailure {
      Object v = values.get(key);
      if (v instanceof String s) {
        return s;
      }
      if (v instanceof JsonNode n && n.isTextual()) {
        return n.textValue();
      }
      throw failure(key, name(key) + " must be a string, not " + describe(v));
    }

    int integer(String key, int min, int max) throws CliFailure {
      Object v = values.get(key);
      String range = min + ".." + max;
      if (v instanceof String s) {
        try {
          int n = Integer.parseInt(s.strip());
          if (n >= min && n <= max) {
            return n;
          }
        } catch (NumberFormatException e) {
          // below
        }
        throw failure(key, "invalid " + name(key) + " '" + s + "': expected an integer " + range);
      }
      JsonNode n = (JsonNode) v;
      if (!n.isIntegralNumber()) {
        throw failure(key, name(key) + " must be an integer " + range + ", not "
            + describe(n));
      }
      if (!n.canConvertToInt() || n.intValue() < min || n.intValue() > max) {
        throw failure(key, "invalid " + name(key) + " " + n.asText() + ": expected " + range);
      }
      return n.intValue();
    }

    List<String> globs(String key) throws CliFailure {
      JsonNode n = (JsonNode) values.get(key);
      if (!n.isArray()) {
        throw failure(key, name(key) + " must be an array of glob strings, not " + describe(n));
      }
      List<String> out = new ArrayList<>();
      for (JsonNode g : n) {
        if (!g.isTextual()) {
          throw failure(key, name(key) + " must hold strings, not " + describe(g));
        }
        String glob = g.textValue();
        if (glob.startsWith("!")) {
          throw failure(key, "invalid " + name(key) + " '" + glob + "': write the glob without"
              + " the ! (every exclude pattern excludes)");
        }
        try {
          new FileFilter(List.of(), List.of(), List.of("!" + glob));
        } catch (IllegalArgumentException e) {
          throw failure(key, "invalid " + name(key) + ": " + e.getMessage().replace("'!", "'"));
        }
        out.add(glob);
      }
      return out;
    }

    CliFailure failure(String key, String message) {
      return failureAt(file == null || text == null ? 0 : lineOf(text, TABLE, key), message);
    }

    CliFailure failureAt(int line, String message) {
      if (file == null) {
        return CliFailure.usage(message);
      }
      return CliFailure.usage(file + (line > 0 ? ":" + line : "") + ": " + message);
    }
  }

  private static final Pattern HEADER = Pattern.compile("^\\s*\\[+\\s*\"?([^\\]\"]*?)\"?\\s*]");
  private static final Pattern KEY = Pattern.compile("^\\s*\"?([A-Za-z0-9_.-]+?)\"?\\s*=");

  /**
   * The 1-based line that sets {@code key} in {@code table} ("" for the top level: then a table
   * header {@code [key]} counts too), or 0 when no line reads so ({@code search.limit = 3} at the
   * top level counts for the table).
   */
  static int lineOf(String text, String table, String key) {
    String current = "";
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher h = HEADER.matcher(lines[i]);
      if (h.find()) {
        current = h.group(1).strip();
        if (table.isEmpty() && current.equals(key)) {
          return i + 1;
        }
        continue;
      }
      Matcher k = KEY.matcher(lines[i]);
      if (k.find()) {
        String name = k.group(1);
        String full = current.isEmpty() ? name : current + "." + name;
        if (full.equals(table.isEmpty() ? key : table + "." + key)
            || table.isEmpty() && full.startsWith(key + ".")) {
          return i + 1;
        }
      }
    }
    return 0;
  }

  private static String describe(@Nullable Object v) {
    if (v instanceof JsonNode n) {
      String type = n.isTextual() ? "a string" : n.isNumber() ? "a number" : n.isBoolean()
          ? "a boolean" : n.isArray() ? "an array" : n.isObject() ? "a table" : "a value";
      String shown = n.isTextual() ? "'" + n.textValue() + "'" : n.toString();
      return type + " (" + (shown.length() > 60 ? shown.substring(0, 60) + "..." : shown) + ")";
    }
    return String.valueOf(v);
  }

  private static String firstLine(@Nullable String s) {
    if (s == null) {
      return "malformed";
    }
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }
}
