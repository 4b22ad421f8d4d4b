package dev.prismindex.engine.internal.walk;

import java.util.Locale;
import java.util.Map;

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

  private Languages() {}

  /** The language of a repository-relative path. */
  public static String detect(String path) {
    int slash = path.lastIndexOf('/');
    String name = path.substring(slash + 1);
    if (name.equals("Dockerfile")) {
      return "dockerfile";
    }
    if (name.equals("Makefile")) {
      return "make";
    }
    int dot = name.lastIndexOf('.');
    if (dot <= 0) {
      return TEXT;
    }
    return BY_EXTENSION.getOrDefault(name.substring(dot + 1).toLowerCase(Locale.ROOT), TEXT);
  }
}
