package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Flags;
import dev.prismindex.engine.FileFilter;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code prism-index completion bash|zsh|fish}: the scripts are generated from the command line's
 * own model, so each offers every visible option of every command (checked against the model, so
 * an option added to {@code search} is covered without touching this test), and they work: bash
 * completes through the real {@code complete -F} function; fish and zsh, when installed, too.
 */
class CompletionTest {

  @TempDir Path dir;
  Harness cli;

  /** The model the scripts are generated from: the real command line. */
  static final CommandLine MODEL = new CommandLine(new Flags.RootFlags());

  @BeforeEach
  void setUp() {
    cli = new Harness(dir);
  }

  private String script(String shell) {
    Result r = cli.run("completion", shell);
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).endsWith("\n");
    return r.out();
  }

  /** Every name (short and long) of every visible option of {@code command}. */
  static Set<String> optionNames(String command) {
    CommandSpec spec = MODEL.getSubcommands().get(command).getCommandSpec();
    Set<String> names = new TreeSet<>();
    for (OptionSpec o : spec.options()) {
      if (!o.hidden()) {
        names.addAll(List.of(o.names()));
      }
    }
    return names;
  }

  @Test
  void optionsOfAnnotatedMethodsComeInAFixedOrderWhateverTheJvm() {
    // Reflection's order of methods varies between JVMs (CDS or not): the archive's completion
    // script and the launcher's once differed in the places of -s and -S.
    CommandSpec search = Cli.parser().getSubcommands().get("search").getCommandSpec();
    List<String> methods = search.options().stream()
        .filter(o -> o.userObject() instanceof java.lang.reflect.Method)
        .map(OptionSpec::longestName).toList();
    assertThat(methods).containsExactly("--case-sensitive", "--ignore-case", "--smart-case");
    List<OptionSpec> all = search.options();
    assertThat(all.subList(all.size() - 3, all.size())).extracting(OptionSpec::longestName)
        .containsExactlyElementsOf(methods);
  }

  @Test
  void theBashScriptOffersEveryOptionOfSearchInItsSearchFunction() {
    String bash = script("bash");
    Matcher fn = Pattern.compile("function _picocli_prism-index_search\\(\\) \\{(.*?)\\n\\}",
        Pattern.DOTALL).matcher(bash);
    assertThat(fn.find()).as("the search function of the script").isTrue();
    Set<String> offered = new TreeSet<>();
    Matcher quoted = Pattern.compile("local (?:flag|arg)_opts=\"([^\"]*)\"").matcher(fn.group(1));
    while (quoted.find()) {
      for (String o : quoted.group(1).split(" ")) {
        if (!o.isEmpty()) {
          offered.add(o.replace("'", ""));
        }
      }
    }
    assertThat(optionNames("search")).contains("--json", "--limit", "-n", "--mode", "--path",
        "--repo");
    assertThat(offered).isEqualTo(optionNames("search"));
    assertThat(bash).doesNotContain("--background");
  }

  @Test
  void zshGetsTheSameScriptWhichLoadsBashCompletionUnderZsh() {
    assertThat(script("zsh")).isEqualTo(script("bash")).contains("bashcompinit");
  }

  @Test
  void theFishScriptHasOneLinePerVisibleOptionOfEveryCommandAndNothingElse() {
    String fish = script("fish");
    Pattern line = Pattern.compile("^complete -c prism-index -n '__fish_seen_subcommand_from"
        + " (\\S+)'(.*)$", Pattern.MULTILINE);
    Map<String, CommandLine> commands = MODEL.getSubcommands();
    for (String command : commands.keySet()) {
      Set<String> offered = new TreeSet<>();
      Matcher m = line.matcher(fish);
      while (m.find()) {
        if (m.group(1).equals(command)) {
          Matcher name = Pattern.compile(" -([sl]) (\\S+)").matcher(m.group(2).split(" -d ")[0]);
          while (name.find()) {
            offered.add((name.group(1).equals("s") ? "-" : "--") + name.group(2));
          }
        }
      }
      assertThat(offered).as(command).isEqualTo(optionNames(command));
    }
    assertThat(fish).contains("-n '__fish_use_subcommand' -a 'search' -d 'Search the index")
        .contains("-l limit -x -d 'Most hits to print")
        .contains("-l repo -x -a '(__fish_complete_directories (commandline -ct))'")
        .contains("-a 'bash zsh fish'")
        .contains("-d 'Log the engine\\'s debug messages")
        .doesNotContain("background");
  }

  @ParameterizedTest
  @ValueSource(strings = {"bash", "BASH", " fish "})
  void theShellNameIsCaseInsensitive(String shell) {
    assertThat(cli.run("completion", shell).exit()).isZero();
  }

  @Test
  void aMissingOrUnknownShellIsAUsageError() {
    Result none = cli.run("completion");
    assertThat(none.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).isEqualTo("prism-index completion: missing SHELL: bash, zsh or fish\n");
    Result tcsh = cli.run("completion", "tcsh");
    assertThat(tcsh.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(tcsh.err())
        .isEqualTo("prism-index completion: unknown shell 'tcsh': expected bash, zsh or fish\n");
  }

  @Test
  void completionTouchesNoRepository() {
    assertThat(cli.run("--repo", dir.resolve("none").toString(), "completion", "bash").exit())
        .isZero();
    assertThat(dir.resolve(".prism-index")).doesNotExist();
  }

  // --- the scripts in their shells ------------------------------------------------------------

  /** What bash's completion function offers for the words typed so far (the last one partial). */
  private List<String> bashCompletes(Path script, String... words) throws Exception {
    StringBuilder array = new StringBuilder();
    for (String w : words) {
      array.append(" '").append(w).append('\'');
    }
    return run(List.of("bash", "-c", "source '" + script + "'; COMP_WORDS=(" + array + ");"
        + " COMP_CWORD=" + (words.length - 1) + "; COMP_LINE=\"${COMP_WORDS[*]}\";"
        + " COMP_POINT=${#COMP_LINE}; _complete_prism-index; printf '%s\\n' \"${COMPREPLY[@]}\""));
  }

  @Test
  void bashCompletesCommandsTheOptionsOfSearchAndTheShells() throws Exception {
    assumeTrue(onPath("bash"), "bash is not installed");
    Path script = Files.writeString(dir.resolve("prism-index.bash"), script("bash"));
    assertThat(bashCompletes(script, "prism-index", ""))
        .contains("index", "search", "status", "serve", "mcp", "completion");
    assertThat(new TreeSet<>(bashCompletes(script, "prism-index", "search", "-")))
        .isEqualTo(optionNames("search"));
    assertThat(bashCompletes(script, "prism-index", "search", "--lim")).containsExactly("--limit");
    assertThat(bashCompletes(script, "prism-index", "completion", ""))
        .containsExactly("bash", "zsh", "fish");
  }

  @Test
  void bashCompletesTheValuesOfModeTypeBackendAndColor() throws Exception {
    assumeTrue(onPath("bash"), "bash is not installed");
    Path script = Files.writeString(dir.resolve("prism-index.bash"), script("bash"));
    assertThat(bashCompletes(script, "prism-index", "search", "--mode", ""))
        .containsExactly("lexical", "semantic", "hybrid", "literal", "regex", "auto");
    assertThat(bashCompletes(script, "prism-index", "search", "--mode", "li"))
        .containsExactly("literal");
    assertThat(bashCompletes(script, "prism-index", "search", "-t", "pyt"))
        .containsExactly("python");
    assertThat(bashCompletes(script, "prism-index", "search", "--type", ""))
        .containsAll(FileFilter.knownLanguages().keySet());
    assertThat(bashCompletes(script, "prism-index", "search", "--backend", ""))
        .containsExactly("local", "opensearch");
    assertThat(bashCompletes(script, "prism-index", "index", "--backend", "o"))
        .containsExactly("opensearch");
    assertThat(bashCompletes(script, "prism-index", "search", "--color", ""))
        .containsExactly("auto", "always", "never");
  }

  @Test
  void fishCompletesTheValuesOfModeTypeAndBackend() throws Exception {
    assumeTrue(onPath("fish"), "fish is not installed");
    Path script = Files.writeString(dir.resolve("prism-index.fish"), script("fish"));
    assertThat(fishCompletes(script, "prism-index search --mode "))
        .containsExactlyInAnyOrder("lexical", "semantic", "hybrid", "literal", "regex", "auto");
    assertThat(fishCompletes(script, "prism-index search --type py")).contains("python");
    assertThat(fishCompletes(script, "prism-index status --backend "))
        .containsExactlyInAnyOrder("local", "opensearch");
  }

  @Test
  void theFishScriptCarriesTheValues() {
    assertThat(script("fish"))
        .contains("-l mode -x -a 'lexical semantic hybrid literal regex auto'")
        .contains("-l backend -x -a 'local opensearch'")
        .contains("-l color -l colour -x -a 'auto always never'")
        .containsPattern("-s t -l type -x -a '[a-z ]*java [a-z ]*python");
  }

  @Test
  void fishCompletesCommandsAndTheOptionsOfSearch() throws Exception {
    assumeTrue(onPath("fish"), "fish is not installed");
    Path script = Files.writeString(dir.resolve("prism-index.fish"), script("fish"));
    List<String> commands = fishCompletes(script, "prism-index ");
    assertThat(commands).contains("index", "search", "status", "serve", "mcp", "completion");
    Set<String> longOptions = new TreeSet<>(fishCompletes(script, "prism-index search --"));
    Set<String> expected = new TreeSet<>(optionNames("search"));
    expected.removeIf(o -> !o.startsWith("--"));
    assertThat(longOptions).isEqualTo(expected);
    assertThat(fishCompletes(script, "prism-index completion "))
        .containsExactlyInAnyOrder("bash", "zsh", "fish");
  }

  private List<String> fishCompletes(Path script, String line) throws Exception {
    List<String> out = new ArrayList<>();
    for (String l : run(List.of("fish", "--no-config", "-c", "source '" + script + "';"
        + " complete -C '" + line + "'"))) {
      out.add(l.split("\t")[0]);
    }
    return out;
  }

  @Test
  void zshSourcesTheScriptAndRegistersTheCompletion() throws Exception {
    assumeTrue(onPath("zsh"), "zsh is not installed");
    Path script = Files.writeString(dir.resolve("prism-index.zsh"), script("zsh"));
    Files.writeString(dir.resolve(".zshrc"), "");
    List<String> out = run(List.of("zsh", "-c", "ZDOTDIR='" + dir + "'; source '" + script
        + "' && print -r -- ${_comps[prism-index]}"));
    assertThat(out).containsExactly("_bash_complete -F _complete_prism-index -o default");
  }

  private List<String> run(List<String> command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().put("HOME", dir.toString());
    pb.redirectErrorStream(false);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(command + "\n" + out + err).isZero();
    List<String> lines = new ArrayList<>(List.of(out.split("\n")));
    lines.removeIf(String::isEmpty);
    return lines;
  }

  private static boolean onPath(String command) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, command))) {
        return true;
      }
    }
    return false;
  }
}
