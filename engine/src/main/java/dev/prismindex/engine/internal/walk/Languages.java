package dev.prismindex.engine.internal.walk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Language detection by file extension (or well-known file name). */
public final class Languages {

  /** The language of files no rule recognises. */
  public static final String TEXT = "text";

  private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
      Map.entry("java", "java"), Map.entry("py", "python"), Map.entry("pyi", "python"),
      Map.entry("ts", "typescript"), Map.entry("mts", "typescript"), Map.entry("cts", "typescript"),
      Map.entry("tsx", "tsx"), Map.entry("js", "javascript"), Map.entry("mjs", "javascript"),
      Map.entry("cjs", "javascript"), Map.entry("jsx", "javascript"), Map.entry("go", "go"),
      Map.entry("rs", "rust"), Map.entry("kt", "kotlin"), Map.entry("kts", "kotlin"),
      Map.entry("scala", "scala"), Map.entry("c", "c"), Map.entry("h", "c"), Map.entry("cc", "cpp"),
      Map.entry("cpp", "cpp"), Map.entry("cxx", "cpp"), Map.entry("hpp", "cpp"),
      Map.entry("cs", "csharp"), Map.entry("rb", "ruby"), Map.entry("php", "php"),
      Map.entry("swift", "swift"), Map.entry("sh", "shell"), Map.entry("bash", "shell"),
      Map.entry("md", "markdown"), Map.entry("json", "json"), Map.entry("yml", "yaml"),
      Map.entry("yaml", "yaml"), Map.entry("toml", "toml"), Map.entry("xml", "xml"),
      Map.entry("html", "html"), Map.entry("css", "css"), Map.entry("sql", "sql"),
      Map.entry("gradle", "groovy"), Map.entry("groovy", "groovy"), Map.entry("txt", TEXT));

  /** Whole file names with a language of their own. */
  private static final Map<String, String> BY_NAME =
      Map.of("Dockerfile", "dockerfile", "Makefile", "make");

  private static final SortedMap<String, List<String>> PATTERNS = patterns(BY_EXTENSION, BY_NAME);

  private Languages() {}

  /**
   * Every language {@link #detect} can answer, with the file-name patterns that select it
   * ({@code *.java}, {@code Dockerfile}), sorted by name. {@link #TEXT} is also the language of
   * every file no pattern selects.
   */
  public static SortedMap<String, List<String>> patterns() {
    return PATTERNS;
  }

  private static SortedMap<String, List<String>> patterns(Map<String, String> byExtension,
      Map<String, String> byName) {
    SortedMap<String, List<String>> out = new TreeMap<>();
    byExtension.forEach((ext, lang) -> out.computeIfAbsent(lang, k -> new ArrayList<>())
        .add("*." + ext));
    byName.forEach((name, lang) -> out.computeIfAbsent(lang, k -> new ArrayList<>()).add(name));
    out.replaceAll((lang, list) -> {
      list.sort(null);
      return List.copyOf(list);
    });
    return Collections.unmodifiableSortedMap(out);
  }

  /** The last path {@link #detect}ed and its language. */
  private record Last(String path, String language) {}

  /**
   * The last answer: an exact search's hits come file by file, all of one file with the same path
   * object, so the path is looked at once per file, not once per hit.
   */
  private static volatile Last last = new Last("", TEXT);

  /** The language of a repository-relative path. */
  public static String detect(String path) {
    Last l = last;
    if (l.path() == path) {
      return l.language();
    }
    String language = byPath(path);
    last = new Last(path, language);
    return language;
  }

  private static String byPath(String path) {
    int slash = path.lastIndexOf('/');
    String name = path.substring(slash + 1);
    String byName = BY_NAME.get(name);
    if (byName != null) {
      return byName;
    }
    int dot = name.lastIndexOf('.');
    if (dot <= 0) {
      return TEXT;
    }
    return BY_EXTENSION.getOrDefault(name.substring(dot + 1).toLowerCase(Locale.ROOT), TEXT);
  }
}
