package dev.prismindex.cli.command;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.prismindex.engine.Workspace;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A workspace file: the repositories searched as one, found the way a repository's root is
 * found. {@value #NAME} is TOML with one array of tables:
 *
 * <pre>
 * [[repo]]
 * path = "service"            # the repository's directory, relative to this file's
 * [[repo]]
 * path = "../client-java"
 * name = "client"             # its name in hits (default: the directory's name)
 * index-dir = "/var/idx/cj"   # its index directory (default: PATH/.prism-index)
 * optional = true             # skipped with a note when it cannot be searched (default false)
 * </pre>
 *
 * Every repository keeps its own index. Names are unique, 1 to 100 letters, digits, {@code .},
 * {@code _}, {@code -} ({@link Workspace#checkName}); a default name that two directories share
 * gets their parent directories' names in front ({@code team-a-lib}, {@code team-b-lib}). A
 * workspace's resident server keeps its files in {@value #HOME_NAME} beside the file.
 */
public final class WorkspaceFile {

  /** The file's name. */
  public static final String NAME = ".prism-workspace.toml";
  /** The directory beside the file where a workspace's resident server keeps its files. */
  public static final String HOME_NAME = ".prism-workspace";

  private static final String TABLE = "repo";
  private static final List<String> KEYS = List.of("path", "name", "index-dir", "optional");

  /**
   * The TOML reader, made when a workspace file is read (not when this class is first used to look
   * for one): a Jackson mapper's construction costs a one-shot search tens of milliseconds.
   */
  private static final class Toml {
    static final TomlMapper MAPPER = new TomlMapper();
  }

  private WorkspaceFile() {}

  /**
   * The workspace file of {@code start}: {@value #NAME} in the nearest directory at or above it
   * that holds either that file or {@code .git} (a repository root comes first, so a repository
   * inside a workspace's directory is searched alone unless its root holds a workspace file);
   * null when there is none.
   */
  public static @Nullable Path find(Path start) {
    for (Path p = start; p != null; p = p.getParent()) {
      Path file = p.resolve(NAME);
      if (Files.isRegularFile(file)) {
        return file;
      }
      if (Files.exists(p.resolve(".git"))) {
        return null;
      }
    }
    return null;
  }

  /**
   * The workspace {@code file} lists.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} naming the file (and line) for a file that
   *     cannot be read or parsed, an unknown key, a value of the wrong type, no repository, an
   *     invalid or repeated name, or a directory listed twice
   */
  public static Target read(Path file) throws CliFailure {
    String text;
    try {
      if (!Files.isRegularFile(file)) {
        throw CliFailure.usage("--workspace " + file + ": no such file");
      }
      text = Files.readString(file);
    } catch (CharacterCodingException e) {
      throw CliFailure.usage(file + ": not UTF-8 text");
    } catch (IOException e) {
      throw CliFailure.usage("cannot read " + file + ": " + e.getMessage());
    }
    JsonNode root;
    try {
      root = Toml.MAPPER.readTree(text);
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      throw CliFailure.usage((at == null || at.getLineNr() < 1 ? file.toString()
          : file + ":" + at.getLineNr()) + ": invalid TOML: " + firstLine(e.getOriginalMessage()));
    }
    Path dir = file.toAbsolutePath().normalize().getParent();
    List<Entry> entries = new ArrayList<>();
    if (root != null && root.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getKey().equals(TABLE) || !e.getValue().isArray()) {
          throw failure(file, SearchConfig.lineOf(text, "", e.getKey()), e.getKey().equals(TABLE)
              ? "'repo' must be an array of tables ([[repo]])"
              : "unknown key '" + e.getKey() + "' (a workspace file lists [[repo]] tables)");
        }
        int n = 0;
        for (JsonNode table : e.getValue()) {
          entries.add(entry(file, text, dir, table, n++));
        }
      }
    }
    if (entries.isEmpty()) {
      throw CliFailure.usage(file + ": lists no repository (add a [[repo]] table with a path)");
    }
    List<Path> roots = entries.stream().map(Entry::root).toList();
    Set<Path> distinct = new HashSet<>();
    for (Entry e : entries) {
      if (!distinct.add(e.root)) {
        throw failure(file, e.line, "the directory " + e.root + " is listed twice");
      }
    }
    List<String> names = names(roots);
    List<Target.Member> members = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      String name = e.name != null ? e.name : names.get(i);
      if (!seen.add(name)) {
        throw failure(file, e.line, "the name '" + name + "' is given to two repositories;"
            + " give one of them another name (name = \"...\")");
      }
      members.add(new Target.Member(name, new Target(e.root, e.home), e.optional));
    }
    return new Target(dir, dir.resolve(HOME_NAME), members, file.toAbsolutePath().normalize());
  }

  /** One {@code [[repo]]} table. */
  private record Entry(Path root, Path home, @Nullable String name, boolean optional, int line) {}

  private static Entry entry(Path file, String text, Path dir, JsonNode table, int n)
      throws CliFailure {
    int line = tableLine(text, n);
    if (!table.isObject()) {
      throw failure(file, line, "each [[repo]] is a table");
    }
    for (Iterator<String> it = table.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!KEYS.contains(key)) {
        throw failure(file, line, "unknown key 'repo." + key + "' (expected "
            + String.join(", ", KEYS) + ")");
      }
    }
    JsonNode path = table.get("path");
    if (path == null || !path.isTextual() || path.textValue().isBlank()) {
      throw failure(file, line, "each [[repo]] needs a path (a directory, relative to " + dir
          + ")");
    }
    Path root = Target.resolve(dir, path.textValue(), "repo.path");
    JsonNode indexDir = table.get("index-dir");
    if (indexDir != null && !indexDir.isTextual()) {
      throw failure(file, line, "repo.index-dir must be a string");
    }
    Path home = indexDir == null ? root.resolve(Target.DEFAULT_HOME_NAME)
        : Target.resolve(dir, indexDir.textValue(), "repo.index-dir");
    JsonNode name = table.get("name");
    String checked = null;
    if (name != null) {
      try {
        checked = Workspace.checkName(name.isTextual() ? name.textValue() : name.toString());
      } catch (IllegalArgumentException e) {
        throw failure(file, line, e.getMessage());
      }
    }
    JsonNode optional = table.get("optional");
    if (optional != null && !optional.isBoolean()) {
      throw failure(file, line, "repo.optional must be true or false");
    }
    return new Entry(root, home, checked, optional != null && optional.booleanValue(), line);
  }

  /**
   * A workspace of the directories {@code roots} (the command line's {@code --repo}s), named by
   * their directories, each with its default index directory.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} for a directory given twice
   */
  public static List<Target.Member> members(List<Path> roots) throws CliFailure {
    Set<Path> seen = new HashSet<>();
    for (Path r : roots) {
      if (!seen.add(r)) {
        throw CliFailure.usage("--repo " + r + " is given twice");
      }
    }
    List<String> names = names(roots);
    List<Target.Member> out = new ArrayList<>();
    for (int i = 0; i < roots.size(); i++) {
      Path r = roots.get(i);
      out.add(new Target.Member(names.get(i), new Target(r, r.resolve(Target.DEFAULT_HOME_NAME)),
          false));
    }
    return out;
  }

  /**
   * The default names of {@code roots}: each directory's name (characters a name cannot hold
   * become {@code -}), with as many parent directories' names in front as it takes to tell apart
   * directories of one name.
   *
   * @throws CliFailure for a directory listed twice
   */
  static List<String> names(List<Path> roots) throws CliFailure {
    int[] depth = new int[roots.size()];
    List<String> names = new ArrayList<>();
    for (int round = 0; ; round++) {
      names.clear();
      for (int i = 0; i < roots.size(); i++) {
        names.add(name(roots.get(i), depth[i]));
      }
      Map<String, List<Integer>> byName = new HashMap<>();
      for (int i = 0; i < names.size(); i++) {
        byName.computeIfAbsent(names.get(i), k -> new ArrayList<>()).add(i);
      }
      boolean clash = false;
      for (List<Integer> same : byName.values()) {
        if (same.size() > 1) {
          clash = true;
          for (int i : same) {
            depth[i]++;
          }
        }
      }
      if (!clash) {
        return names;
      }
      if (round > 64) {
        throw CliFailure.usage("the directory " + roots.get(byName.values().stream()
            .filter(l -> l.size() > 1).findFirst().orElseThrow().get(0)) + " is listed twice");
      }
    }
  }

  /** The names of {@code root}'s directory and its {@code parents} parents, joined by '-'. */
  private static String name(Path root, int parents) {
    List<String> parts = new ArrayList<>();
    Path p = root;
    for (int i = 0; i <= parents && p != null; i++) {
      Path f = p.getFileName();
      parts.add(0, f == null ? "root" : f.toString());
      p = p.getParent();
    }
    String joined = String.join("-", parts).replaceAll("[^A-Za-z0-9._-]", "-")
        .replaceAll("^[^A-Za-z0-9]+", "");
    if (joined.isEmpty()) {
      joined = "repo";
    }
    return joined.length() > 100 ? joined.substring(joined.length() - 100)
        .replaceAll("^[^A-Za-z0-9]+", "r") : joined;
  }

  /** The line of the {@code n}-th {@code [[repo]]} header (0-based), or 0. */
  private static int tableLine(String text, int n) {
    String[] lines = text.split("\r?\n", -1);
    int seen = 0;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].strip().matches("\\[\\[\\s*\"?repo\"?\\s*]].*")) {
        if (seen++ == n) {
          return i + 1;
        }
      }
    }
    return 0;
  }

  private static CliFailure failure(Path file, int line, String message) {
    return CliFailure.usage(file + (line > 0 ? ":" + line : "") + ": " + message);
  }

  private static String firstLine(@Nullable String s) {
    if (s == null) {
      return "malformed";
    }
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }
}
