package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The documentation is a reference, so it is checked like code. In README.md,
 * SEARCH-INTEGRATION-PLAN.md and docs/ (shell and plain code blocks): every {@code prism-index}
 * command parses against the command line's own picocli model ({@link Cli#parser()}); every
 * option given to a script under {@code scripts/} is one the script accepts; every benchmark and
 * {@code dev.prismindex} class a command names exists. Outside code: every relative link and
 * anchor resolves. In docs/architecture.md: the module table names exactly the build's modules and
 * their artifacts, every package a table names exists, and every main package of every module is
 * in a table. Each problem names the doc and its line.
 */
class DocsTest {

  private static final Path ROOT = root();

  /** The launcher, by whatever path a doc calls it. */
  private static final Pattern LAUNCHER = Pattern.compile("(?:.*/)?prism-index");
  private static final Pattern SCRIPT = Pattern.compile("(?:\\./)?scripts/([\\w-]+)");
  private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_]\\w*)=(.*)", Pattern.DOTALL);
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)}|\\$(\\w+)");
  private static final Pattern CLASS_NAME =
      Pattern.compile("dev\\.prismindex(?:\\.[a-z]\\w*)+\\.[A-Z]\\w*");
  private static final Pattern BENCHMARK = Pattern.compile("([A-Z]\\w*)(?:\\.(\\w+))?");
  /** A value a doc writes in capitals (N, DIR, QUERY) or a variable it does not set. */
  private static final Pattern PLACEHOLDER = Pattern.compile("[A-Z][A-Z0-9_]*");
  private static final Set<String> PREFIXES = Set.of("env", "exec", "time", "nohup", "command",
      "until", "while", "if", "then", "do", "else", "!");

  private final List<String> problems = new ArrayList<>();

  @Test
  void everyCommandInACodeBlockParses() {
    Counts counts = new Counts();
    for (Doc doc : docs()) {
      for (Block block : doc.blocks()) {
        if (!block.info().isEmpty() && !block.info().equals("sh")) {
          continue;
        }
        Map<String, String> vars = new HashMap<>();
        for (Line line : block.logicalLines()) {
          String text = expand(line.text(), vars);
          for (List<Word> command : simpleCommands(text)) {
            check(doc, line.number(), command, vars, counts);
          }
        }
      }
    }
    report();
    // The check itself must see what it checks: the docs run the command line and the scripts.
    assertThat(counts.cli).as("prism-index commands checked").isGreaterThan(30);
    assertThat(counts.scripts).as("script commands checked").isGreaterThan(10);
    assertThat(counts.classes).as("benchmark and class names checked").isGreaterThan(10);
  }

  @Test
  void everyRelativeLinkAndAnchorResolves() {
    Map<Path, Set<String>> anchors = new HashMap<>();
    int links = 0;
    Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    for (Doc doc : docs()) {
      for (Line line : doc.prose()) {
        Matcher m = link.matcher(line.text().replaceAll("`[^`]*`", ""));
        while (m.find()) {
          String target = m.group(1);
          if (target.matches("[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            continue; // http, https, mailto: not ours to check
          }
          links++;
          int hash = target.indexOf('#');
          String file = hash < 0 ? target : target.substring(0, hash);
          Path resolved = file.isEmpty() ? doc.path()
              : doc.path().getParent().resolve(file).normalize();
          if (!resolved.startsWith(ROOT) || !Files.exists(resolved)) {
            problem(doc, line.number(), "link to a missing file: " + target);
          } else if (hash >= 0 && resolved.toString().endsWith(".md")) {
            String anchor = target.substring(hash + 1);
            Set<String> known = anchors.computeIfAbsent(resolved, p -> new Doc(p).anchors());
            if (!known.contains(anchor)) {
              problem(doc, line.number(), "link to a missing anchor: " + target + " ("
                  + ROOT.relativize(resolved) + " has no heading with the anchor #" + anchor + ")");
            }
          }
        }
      }
    }
    report();
    assertThat(links).as("relative links checked").isGreaterThan(50);
  }

  @Test
  void architectureTablesMatchTheCode() {
    Doc doc = new Doc(ROOT.resolve("docs/architecture.md"));
    List<String> modules = buildModules();
    Map<String, Integer> tabledModules = new LinkedHashMap<>();
    Map<String, Set<String>> tabledPackages = new HashMap<>();
    String headingModule = null;
    boolean moduleTable = false;
    boolean packageTable = false;
    int moduleColumn = -1;
    int packageColumn = -1;
    for (Line line : doc.prose()) {
      String text = line.text();
      if (text.startsWith("#")) {
        Matcher m = Pattern.compile("^#+ `([\\w-]+)` packages").matcher(text);
        headingModule = m.find() ? m.group(1) : null;
        moduleTable = false;
        packageTable = false;
        continue;
      }
      if (!text.startsWith("|")) {
        moduleTable = false;
        packageTable = false;
        continue;
      }
      List<String> cells = cells(text);
      if (cells.stream().allMatch(c -> c.matches(":?-+:?"))) {
        continue;
      }
      if (!moduleTable && !packageTable) { // a header row
        moduleTable = cells.get(0).equals("Module") && cells.size() > 1
            && cells.get(1).equals("Artifact");
        packageColumn = cells.indexOf("Package");
        moduleColumn = cells.indexOf("Module");
        packageTable = packageColumn >= 0 && (headingModule != null || moduleColumn >= 0);
        continue;
      }
      if (moduleTable) {
        String dir = firstCode(cells.get(0)).replaceAll("/$", "");
        tabledModules.put(dir, line.number());
        String artifact = firstCode(cells.get(1));
        Path pom = ROOT.resolve(dir).resolve("pom.xml");
        if (!Files.isRegularFile(pom)) {
          problem(doc, line.number(), "module table: " + dir + "/ has no pom.xml");
        } else if (modules.contains(dir) && !artifact.equals(artifactId(pom))) {
          problem(doc, line.number(), "module table: " + dir + "/ builds " + artifactId(pom)
              + ", not " + artifact);
        }
      } else if (packageTable) {
        String module = moduleColumn >= 0 ? firstCode(cells.get(moduleColumn)) : headingModule;
        String name = firstCode(cells.get(packageColumn));
        String pkg = name.startsWith("...") ? "dev.prismindex." + name.substring(3) : name;
        tabledPackages.computeIfAbsent(module, k -> new TreeSet<>()).add(pkg);
        if (!mainPackages(module).contains(pkg)) {
          problem(doc, line.number(), "package table: module " + module + " has no package "
              + pkg + " (no .java file in " + module + "/src/main/java/"
              + pkg.replace('.', '/') + "/)");
        }
      }
    }
    for (String module : modules) {
      if (!tabledModules.containsKey(module)) {
        problem(doc, 0, "module table: the build's module " + module + "/ is not in it");
      }
      for (String pkg : mainPackages(module)) {
        if (!tabledPackages.getOrDefault(module, Set.of()).contains(pkg)) {
          problem(doc, 0, "package tables: " + pkg + " (module " + module
              + ") is in no table: add a row to the module's package table");
        }
      }
    }
    report();
    assertThat(tabledPackages.values().stream().mapToInt(Set::size).sum())
        .as("packages in tables").isGreaterThan(20);
  }

  // ---- commands ----------------------------------------------------------------------------

  private static final class Counts {
    int cli;
    int scripts;
    int classes;
  }

  private void check(Doc doc, int line, List<Word> command, Map<String, String> vars,
      Counts counts) {
    if (!command.isEmpty() && command.stream().allMatch(w -> ASSIGNMENT.matcher(w.text).matches()
        || w.text.equals("export"))) {
      for (Word w : command) {
        Matcher m = ASSIGNMENT.matcher(w.text);
        if (m.matches()) {
          vars.put(m.group(1), m.group(2));
        }
      }
      return;
    }
    for (Word w : command) {
      Matcher m = CLASS_NAME.matcher(w.text);
      while (m.find()) {
        counts.classes++;
        if (!classes().contains(m.group())) {
          problem(doc, line, "no class " + m.group() + " in any module's sources");
        }
      }
      if (w.quoted) { // a command line inside a string: hyperfine "...", bash -c "..."
        for (List<Word> inner : simpleCommands(w.text)) {
          check(doc, line, inner, vars, counts);
        }
      }
    }
    int k = 0;
    while (k < command.size()) {
      String t = command.get(k).text;
      if (ASSIGNMENT.matcher(t).matches() || PREFIXES.contains(t)) {
        k++;
      } else if (t.endsWith("/time")) {
        k++;
        while (k < command.size() && command.get(k).text.startsWith("-")) {
          k += command.get(k).text.equals("-f") || command.get(k).text.equals("-o") ? 2 : 1;
        }
      } else {
        break;
      }
    }
    if (k >= command.size()) {
      return;
    }
    List<String> words = command.stream().map(w -> w.text).toList();
    String first = words.get(k);
    if (LAUNCHER.matcher(first).matches()) {
      counts.cli++;
      checkCli(doc, line, words.subList(k + 1, words.size()));
    } else if (first.equals("java")) {
      int jar = words.indexOf("-jar");
      if (jar > k && jar + 1 < words.size()) {
        String path = words.get(jar + 1);
        if (path.endsWith("prism-index.jar")) {
          counts.cli++;
          checkCli(doc, line, words.subList(jar + 2, words.size()));
        } else if (path.endsWith("benchmarks.jar") && jar + 2 < words.size()) {
          counts.classes++;
          checkBenchmark(doc, line, words.get(jar + 2));
        }
      }
    } else {
      Matcher script = SCRIPT.matcher(first);
      if (script.matches()) {
        counts.scripts++;
        checkScript(doc, line, script.group(1), words.subList(k + 1, words.size()));
      }
    }
    int dashes = words.indexOf("--"); // claude mcp add NAME -- /path/to/prism-index mcp ...
    if (dashes > k && dashes + 1 < words.size()
        && LAUNCHER.matcher(words.get(dashes + 1)).matches()) {
      counts.cli++;
      checkCli(doc, line, words.subList(dashes + 2, words.size()));
    }
  }

  private void checkCli(Doc doc, int line, List<String> given) {
    List<String> args = new ArrayList<>(given.stream().filter(a -> !a.equals("...")).toList());
    CommandLine parser = Cli.parser();
    CommandSpec spec = parser.getCommandSpec();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("-")) {
        int eq = a.indexOf('=');
        OptionSpec option = spec.findOption(eq < 0 ? a : a.substring(0, eq));
        if (option != null && isNumber(option.type())) {
          if (eq >= 0 && PLACEHOLDER.matcher(a.substring(eq + 1)).matches()) {
            args.set(i, a.substring(0, eq + 1) + "1");
          } else if (eq < 0 && i + 1 < args.size()
              && PLACEHOLDER.matcher(args.get(i + 1)).matches()) {
            args.set(i + 1, "1");
          }
        }
      } else if (spec.subcommands().containsKey(a)) {
        spec = spec.subcommands().get(a).getCommandSpec();
      }
    }
    try {
      parser.parseArgs(args.toArray(String[]::new));
    } catch (ParameterException e) {
      problem(doc, line, "`prism-index " + String.join(" ", given) + "` does not parse: "
          + e.getMessage());
    }
  }

  private static boolean isNumber(Class<?> type) {
    return type == int.class || type == Integer.class || type == long.class || type == Long.class;
  }

  private void checkScript(Doc doc, int line, String name, List<String> args) {
    Path script = ROOT.resolve("scripts").resolve(name);
    if (!Files.isRegularFile(script)) {
      problem(doc, line, "no script scripts/" + name);
      return;
    }
    Set<String> options = scriptOptions(script);
    for (String a : args) {
      String option = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (option.startsWith("--") && option.length() > 2 && !options.contains(option)) {
        problem(doc, line, "scripts/" + name + " has no option " + option + " (it takes "
            + String.join(", ", options) + ")");
      }
    }
  }

  /**
   * The options a script's argument loop accepts: a shell script's case labels and {@code == --x}
   * tests, a Python script's {@code add_argument("--x", ...)} names.
   */
  static Set<String> scriptOptions(Path script) {
    Set<String> options = new TreeSet<>();
    Pattern label = Pattern.compile("^\\s*((?:-[-\\w*=]*\\s*\\|\\s*)*-[-\\w*=]*)\\)");
    Pattern test = Pattern.compile("==\\s*\"?(--[\\w-]+)");
    Pattern argparse = Pattern.compile("add_argument\\(([^)]*)");
    Pattern quoted = Pattern.compile("[\"'](--[\\w-]+)[\"']");
    for (String raw : read(script)) {
      Matcher a = argparse.matcher(raw);
      while (a.find()) {
        Matcher q = quoted.matcher(a.group(1));
        while (q.find()) {
          options.add(q.group(1));
        }
      }
      String code = raw.replaceAll("(^|\\s)#.*", "");
      Matcher m = label.matcher(code);
      if (m.find()) {
        for (String alternative : m.group(1).split("\\|")) {
          if (alternative.strip().startsWith("--")) {
            options.add(alternative.strip());
          }
        }
      }
      Matcher t = test.matcher(code);
      while (t.find()) {
        options.add(t.group(1));
      }
    }
    return options;
  }

  private void checkBenchmark(Doc doc, int line, String name) {
    Matcher m = BENCHMARK.matcher(name);
    if (!m.matches() || PLACEHOLDER.matcher(name).matches()) {
      return; // -l, a placeholder
    }
    Path source = classes().contains("dev.prismindex.benchmarks." + m.group(1))
        ? ROOT.resolve("benchmarks/src/main/java/dev/prismindex/benchmarks/" + m.group(1) + ".java")
        : null;
    if (source == null) {
      problem(doc, line, "no benchmark " + m.group(1) + " in benchmarks/src/main/java");
    } else if (m.group(2) != null && !String.join("\n", read(source)).contains(" " + m.group(2)
        + "(")) {
      problem(doc, line, "benchmark " + m.group(1) + " has no method " + m.group(2));
    }
  }

  // ---- a small shell lexer -----------------------------------------------------------------

  /** A word of a command; {@code quoted} when quotes held white space (a command line, maybe). */
  record Word(String text, boolean quoted) {}

  /** Splits shell text into simple commands (at | & ; ( ) $( and `), dropping redirections. */
  static List<List<Word>> simpleCommands(String text) {
    List<List<Word>> commands = new ArrayList<>();
    List<Word> current = new ArrayList<>();
    StringBuilder word = null;
    boolean quoted = false;
    boolean redirectTarget = false;
    int n = text.length();
    int i = 0;
    while (i <= n) {
      char c = i < n ? text.charAt(i) : '\n';
      boolean ends = i == n || Character.isWhitespace(c) || "|&;()`<>".indexOf(c) >= 0
          || (c == '$' && i + 1 < n && text.charAt(i + 1) == '(');
      if (ends && word != null) {
        boolean fd = !quoted && (c == '<' || c == '>') && word.toString().matches("\\d+");
        if (redirectTarget) {
          redirectTarget = false; // the file a redirection names
        } else if (!fd) {
          current.add(new Word(word.toString(), quoted && word.toString().matches("(?s).*\\s.*")));
        }
        word = null;
        quoted = false;
      }
      if (i == n) {
        break;
      }
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '#' && word == null) {
        int eol = text.indexOf('\n', i);
        i = eol < 0 ? n : eol;
      } else if (c == '<' || c == '>') {
        i++;
        while (i < n && (text.charAt(i) == '>' || text.charAt(i) == '&')) {
          i++;
        }
        if (c == '<' && i < n && text.charAt(i) == '(') { // <(command)
          commands.add(current);
          current = new ArrayList<>();
          i++;
        } else {
          redirectTarget = true;
        }
      } else if (ends) { // | & ; ( ) ` $(
        commands.add(current);
        current = new ArrayList<>();
        i += c == '$' ? 2 : 1;
      } else {
        if (word == null) {
          word = new StringBuilder();
        }
        if (c == '\'') {
          int close = text.indexOf('\'', i + 1);
          close = close < 0 ? n : close;
          word.append(text, i + 1, close);
          quoted = true;
          i = close + 1;
        } else if (c == '"') {
          i++;
          while (i < n && text.charAt(i) != '"') {
            char d = text.charAt(i);
            if (d == '\\' && i + 1 < n && "\"\\$`".indexOf(text.charAt(i + 1)) >= 0) {
              d = text.charAt(++i);
            }
            word.append(d);
            i++;
          }
          quoted = true;
          i++;
        } else if (c == '\\' && i + 1 < n) {
          word.append(text.charAt(i + 1));
          i += 2;
        } else {
          word.append(c);
          i++;
        }
      }
    }
    commands.add(current);
    commands.removeIf(List::isEmpty);
    return commands;
  }

  /** Substitutes the variables a block set; one it did not set stands for itself. */
  static String expand(String text, Map<String, String> vars) {
    Matcher m = VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2);
      m.appendReplacement(out, Matcher.quoteReplacement(vars.getOrDefault(name, name)));
    }
    m.appendTail(out);
    return out.toString();
  }

  // ---- documents ---------------------------------------------------------------------------

  record Line(int number, String text) {}

  record Block(String info, List<Line> lines) {
    /** Lines joined where they end in a backslash, each numbered by its first line. */
    List<Line> logicalLines() {
      List<Line> out = new ArrayList<>();
      StringBuilder text = new StringBuilder();
      int start = -1;
      for (Line l : lines) {
        if (start < 0) {
          start = l.number();
        }
        String t = l.text();
        if (t.endsWith("\\")) {
          text.append(t, 0, t.length() - 1).append(' ');
        } else {
          out.add(new Line(start, text.append(t).toString()));
          text.setLength(0);
          start = -1;
        }
      }
      if (start >= 0) {
        out.add(new Line(start, text.toString()));
      }
      return out;
    }
  }

  record Doc(Path path, List<String> lines) {
    Doc(Path path) {
      this(path, read(path));
    }

    String name() {
      return ROOT.relativize(path).toString();
    }

    List<Block> blocks() {
      List<Block> blocks = new ArrayList<>();
      Block open = null;
      for (int i = 0; i < lines.size(); i++) {
        String l = lines.get(i);
        if (l.startsWith("```")) {
          if (open == null) {
            open = new Block(l.substring(3).strip(), new ArrayList<>());
          } else {
            blocks.add(open);
            open = null;
          }
        } else if (open != null) {
          open.lines().add(new Line(i + 1, l));
        }
      }
      return blocks;
    }

    /** The lines outside code blocks. */
    List<Line> prose() {
      List<Line> out = new ArrayList<>();
      boolean code = false;
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).startsWith("```")) {
          code = !code;
        } else if (!code) {
          out.add(new Line(i + 1, lines.get(i)));
        }
      }
      return out;
    }

    /** The anchors GitHub gives the headings (lower case, punctuation dropped, - for spaces). */
    Set<String> anchors() {
      Set<String> anchors = new LinkedHashSet<>();
      Map<String, Integer> seen = new HashMap<>();
      for (Line line : prose()) {
        Matcher m = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$").matcher(line.text());
        if (m.matches()) {
          String slug = m.group(1).replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1").toLowerCase()
              .codePoints()
              .filter(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == ' ')
              .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
              .toString().replace(' ', '-');
          int count = seen.merge(slug, 1, Integer::sum);
          anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
        }
      }
      return anchors;
    }
  }

  private static List<Doc> docs() {
    List<Doc> docs = new ArrayList<>();
    docs.add(new Doc(ROOT.resolve("README.md")));
    docs.add(new Doc(ROOT.resolve("SEARCH-INTEGRATION-PLAN.md")));
    try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(p -> docs.add(new Doc(p)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return docs;
  }

  // ---- the code ----------------------------------------------------------------------------

  private static Set<String> classes;

  /** Every class of every module's main and test sources, by its name. */
  private static synchronized Set<String> classes() {
    if (classes == null) {
      Set<String> names = new TreeSet<>();
      try (Stream<Path> files = Files.walk(ROOT)) {
        files.filter(p -> p.toString().endsWith(".java"))
            .map(p -> ROOT.relativize(p).toString().replace('\\', '/'))
            .filter(p -> p.matches("(?:[\\w-]+/)+src/(?:main|test)/java/.*")
                && !p.contains("/target/"))
            .forEach(p -> names.add(p.replaceFirst(".*?/src/(?:main|test)/java/", "")
                .replaceAll("\\.java$", "").replace('/', '.')));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      classes = names;
    }
    return classes;
  }

  /** The packages of a module's main sources: directories holding a .java file. */
  private static Set<String> mainPackages(String module) {
    Path src = ROOT.resolve(module).resolve("src/main/java");
    Set<String> packages = new TreeSet<>();
    if (!Files.isDirectory(src)) {
      return packages;
    }
    try (Stream<Path> files = Files.walk(src)) {
      files.filter(p -> p.toString().endsWith(".java") && !p.getParent().equals(src))
          .forEach(p -> packages.add(src.relativize(p.getParent()).toString().replace('/', '.')));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return packages;
  }

  private static List<String> buildModules() {
    List<String> modules = new ArrayList<>();
    Matcher m = Pattern.compile("<module>([^<]+)</module>")
        .matcher(String.join("\n", read(ROOT.resolve("pom.xml"))));
    while (m.find()) {
      modules.add(m.group(1));
    }
    return modules;
  }

  private static String artifactId(Path pom) {
    String xml = String.join("\n", read(pom)).replaceAll("(?s)<parent>.*?</parent>", "");
    Matcher m = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(xml);
    return m.find() ? m.group(1) : "";
  }

  // ---- helpers -----------------------------------------------------------------------------

  private static List<String> cells(String row) {
    String inner = row.strip().replaceAll("^\\|", "").replaceAll("\\|$", "");
    List<String> cells = new ArrayList<>();
    for (String cell : inner.split("(?<!\\\\)\\|", -1)) {
      cells.add(cell.strip());
    }
    return cells;
  }

  private static String firstCode(String cell) {
    Matcher m = Pattern.compile("`([^`]+)`").matcher(cell);
    return m.find() ? m.group(1) : cell;
  }

  private void problem(Doc doc, int line, String message) {
    problems.add(doc.name() + (line > 0 ? ":" + line : "") + ": " + message);
  }

  private void report() {
    if (!problems.isEmpty()) {
      fail(problems.size() + " problem(s) in the docs:\n" + String.join("\n", problems));
    }
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path root() {
    String property = System.getProperty("prism.project.root");
    Path root = (property != null ? Path.of(property) : Path.of("..")).toAbsolutePath().normalize();
    if (!Files.isRegularFile(root.resolve("SEARCH-INTEGRATION-PLAN.md"))) {
      throw new IllegalStateException("not the project's root: " + root);
    }
    return root;
  }
}
