package dev.prismindex.cli;

import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.SearchRequests;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Which arguments of a command line are options and which are the query, decided before picocli
 * parses them, so that a query is never taken for an option (docs/cli.md, "The query and the
 * options"). The rules, for the arguments after the command's name:
 *
 * <ol>
 *   <li>{@code --} ends the options: every argument after it is the query, whatever it looks like.
 *   <li>An argument is an option only when it is one exactly: a long name ({@code --limit},
 *       {@code --color=never}), a short one ({@code -C}, with its value attached: {@code -C2},
 *       {@code -tjava}) or a cluster of short flags ({@code -ln}); its value, when it takes one
 *       and none is attached, is the next argument whatever it is.
 *   <li>{@code -h}, {@code --help}, {@code -V} and {@code --version} are options only as whole
 *       words and only before the query: never inside a cluster, so {@code -Verbose} is a query;
 *       after the query they are words of it. With {@code --json} they are a usage error: NDJSON
 *       output is never replaced by help or version text.
 *   <li>Any other argument that starts with {@code -} is the query ({@code -1}, {@code -Verbose},
 *       {@code "-hidden files"}, {@code ->}), except a long name that is not an option
 *       ({@code --limt}: unknown, with the closest option) and a dash with one letter that is not
 *       one ({@code -v}: unknown, saying that such a query goes after {@code --}).
 * </ol>
 *
 * The result is the same command line with the options first and the query after a {@code --},
 * which picocli cannot misread. A command line without a known command is left as it is.
 */
final class Arguments {

  /** The argument that reads the query from standard input. */
  static final String STDIN = "-";

  private Arguments() {}

  /**
   * A command line sorted into options and the positional arguments of its command.
   *
   * @param command the command's name, or null when none was found (then {@code options} is the
   *     whole line, unchanged)
   * @param options the global options, the command's name and the command's options with their
   *     values, in their order
   * @param positionals the command's other arguments (the query words), in their order
   * @param dashDash whether the first positional came after a {@code --}
   * @param json whether {@code --json} is among the options
   */
  record Line(@Nullable String command, List<String> options, List<String> positionals,
      boolean dashDash, boolean json) {

    /** The command line for picocli: the options, then {@code --} and the positionals. */
    String[] args() {
      List<String> all = new ArrayList<>(options);
      if (command != null && !positionals.isEmpty()) {
        all.add("--");
      }
      all.addAll(positionals);
      return all.toArray(String[]::new);
    }
  }

  /**
   * Sorts {@code args} (see the class comment).
   *
   * @throws CliFailure a usage error for an argument that is neither an option nor a query word
   *     ({@code -v}), help or version asked for with {@code --json}, and for several query words
   *     of {@code search}
   */
  static Line sort(CommandLine root, String[] args) throws CliFailure {
    CommandSpec spec = root.getCommandSpec();
    List<String> options = new ArrayList<>();
    int i = 0;
    String command = null;
    while (i < args.length && command == null) {
      String a = args[i++];
      if (a.equals("--")) {
        options.add(a);
        break;
      }
      CommandLine sub = spec.subcommands().get(a);
      if (sub != null) {
        options.add(a);
        command = a;
        spec = sub.getCommandSpec();
        break;
      }
      if (a.startsWith("-") && !a.startsWith("--") && a.length() > 2
          && spec.optionsMap().get(a) == null && helpOrVersionInside(spec, a)) {
        throw CliFailure.usage("unknown option '" + a + "' (-h and -V stand alone; see"
            + " `prism-index --help`)");
      }
      options.add(a);
      OptionSpec o = a.startsWith("-") ? spec.optionsMap().get(a) : null;
      if (o != null && takesValue(o) && i < args.length) {
        options.add(args[i++]);
      }
    }
    if (command == null) {
      for (; i < args.length; i++) {
        options.add(args[i]);
      }
      return new Line(null, options, List.of(), false, false);
    }
    List<String> positionals = new ArrayList<>();
    List<String> helpAfterQuery = new ArrayList<>();
    String helpOption = null;
    boolean json = false;
    boolean unknown = false;
    boolean dashDash = false;
    boolean dashDashFirst = false;
    for (; i < args.length; i++) {
      String a = args[i];
      if (dashDash) {
        positionals.add(a);
        continue;
      }
      if (a.equals("--")) {
        dashDash = true;
        dashDashFirst = positionals.isEmpty();
        continue;
      }
      if (!a.startsWith("-") || a.equals(STDIN)) {
        positionals.add(a);
        continue;
      }
      String name = a.startsWith("--") && a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      OptionSpec o = spec.optionsMap().get(name);
      if (o != null) {
        if (o.usageHelp() || o.versionHelp()) {
          if (!positionals.isEmpty()) {
            positionals.add(a);
            helpAfterQuery.add(a);
            continue;
          }
          helpOption = a;
        }
        json |= name.equals("--json");
        options.add(a);
        if (takesValue(o) && !a.contains("=") && i + 1 < args.length) {
          options.add(args[++i]);
        }
        continue;
      }
      if (a.startsWith("--")) {
        options.add(a); // not an option: picocli names it, with the closest one
        unknown = true;
        continue;
      }
      int cluster = cluster(spec, a);
      if (cluster >= 0) {
        options.add(a);
        if (cluster == 1 && i + 1 < args.length) {
          options.add(args[++i]);
        }
        continue;
      }
      if (a.length() == 2 && Character.isLetter(a.charAt(1))) {
        throw CliFailure.usage("unknown option '" + a + "'; a query that starts with - goes after"
            + " --: prism-index " + command + " -- " + a + " (see `prism-index " + command
            + " --help`)");
      }
      positionals.add(a);
    }
    if (json && helpOption != null) {
      throw CliFailure.usage(helpOption + " prints text and --json asks for NDJSON only: give one"
          + " of them");
    }
    if (command.equals("search") && positionals.size() > 1 && !unknown) {
      throw CliFailure.usage(severalWords(positionals, dashDash, dashDashFirst, helpAfterQuery,
          options.contains("-n") || options.contains("--line-number"), spec));
    }
    return new Line(command, options, positionals, dashDash && dashDashFirst, json);
  }

  /** {@code prism-index} and the command's name when the line has one, as errors name it. */
  static String qualifiedName(CommandLine root, String[] args) {
    CommandSpec spec = root.getCommandSpec();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        break;
      }
      if (spec.subcommands().containsKey(a)) {
        return spec.subcommands().get(a).getCommandSpec().qualifiedName();
      }
      OptionSpec o = a.startsWith("-") ? spec.optionsMap().get(a) : null;
      if (o != null && takesValue(o)) {
        i++;
      }
    }
    return spec.qualifiedName();
  }

  /**
   * The error for several query words: quote them; when they came after {@code --} and some look
   * like options, put the options before {@code --}; when help came after the query, put it first.
   */
  private static String severalWords(List<String> words, boolean dashDash, boolean dashDashFirst,
      List<String> helpAfterQuery, boolean lineNumbers, CommandSpec spec) {
    if (!helpAfterQuery.isEmpty()) {
      String h = helpAfterQuery.get(0);
      return h + " after the query is a word of it, not an option (a query may start with -):"
          + " to see the help, put it first: prism-index search " + h;
    }
    if (dashDash) {
      List<String> optionLike = new ArrayList<>();
      for (String w : words) {
        String name = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
        if (w.startsWith("-") && spec.optionsMap().containsKey(name)) {
          optionLike.add(w);
        }
      }
      if (!optionLike.isEmpty()) {
        int query = dashDashFirst ? 0 : words.size() - 1;
        return "everything after -- is the query, so '" + optionLike.get(0) + "' is not read as"
            + " an option there: put the options before --, as in " + example(words, query)
            + "; or quote a query of several words";
      }
    }
    String hint = lineNumbers && words.stream().anyMatch(w -> !w.isEmpty()
        && w.chars().allMatch(Character::isDigit)) ? "; -n turns on line numbers (as in grep): the"
            + " most hits is --limit N" : "";
    return words.size() + " words where one QUERY goes: quote a query of several words, as in"
        + " prism-index search \"" + String.join(" ", words)
        + "\"; a directory to search goes in --path DIR" + hint;
  }

  /** {@code prism-index search OPTIONS -- QUERY} for the words of an options-after-{@code --} line. */
  private static String example(List<String> words, int queryIndex) {
    List<String> options = new ArrayList<>(words);
    String query = options.remove(queryIndex);
    return "prism-index search " + String.join(" ", options) + " -- " + query;
  }

  /**
   * Whether {@code a} (a single dash and at least one character) is a cluster of this command's
   * short options: -1 when it is not, 0 when it is complete, 1 when its last option takes the next
   * argument as its value. Help and version are never part of a cluster.
   */
  private static int cluster(CommandSpec spec, String a) {
    Map<Character, OptionSpec> shorts = spec.posixOptionsMap();
    for (int j = 1; j < a.length(); j++) {
      OptionSpec o = shorts.get(a.charAt(j));
      if (o == null || o.usageHelp() || o.versionHelp()) {
        return -1;
      }
      if (takesValue(o)) {
        return j == a.length() - 1 ? 1 : 0; // the rest is its value
      }
    }
    return 0;
  }

  private static boolean helpOrVersionInside(CommandSpec spec, String a) {
    for (int j = 1; j < a.length(); j++) {
      OptionSpec o = spec.posixOptionsMap().get(a.charAt(j));
      if (o != null && (o.usageHelp() || o.versionHelp())) {
        return true;
      }
    }
    return false;
  }

  private static boolean takesValue(OptionSpec o) {
    return o.arity().min() > 0;
  }

  /**
   * The command line with the query read from {@code in} when the query is {@value #STDIN}
   * (before any {@code --}): the whole input, UTF-8, its trailing line breaks removed. Any other
   * command line is returned as it is.
   *
   * @throws CliFailure a usage error when the input is empty, not UTF-8 or over the query's
   *     byte limit, or cannot be read
   */
  static String[] withStdinQuery(CommandLine root, String[] args, InputStream in)
      throws CliFailure {
    boolean any = false;
    for (String a : args) {
      any |= a.equals(STDIN);
    }
    if (!any) {
      return args;
    }
    Line line = sort(root, args);
    if (!"search".equals(line.command()) || line.dashDash()
        || !line.positionals().equals(List.of(STDIN))) {
      return args;
    }
    byte[] bytes;
    try {
      bytes = in.readNBytes(SearchRequests.MAX_QUERY_BYTES * 4 + 2);
    } catch (IOException e) {
      throw CliFailure.usage("cannot read the query from stdin: " + e.getMessage());
    }
    int n = bytes.length;
    while (n > 0 && (bytes[n - 1] == '\n' || bytes[n - 1] == '\r')) {
      n--;
    }
    if (n > SearchRequests.MAX_QUERY_BYTES) {
      throw CliFailure.usage("the query from stdin is more than " + SearchRequests.MAX_QUERY_BYTES
          + " bytes (UTF-8): at most " + SearchRequests.MAX_QUERY_BYTES + " bytes are allowed");
    }
    String query;
    try {
      query = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, 0, n)).toString();
    } catch (CharacterCodingException e) {
      throw CliFailure.usage("the query from stdin is not UTF-8");
    }
    if (query.isBlank()) {
      throw CliFailure.usage("missing QUERY: stdin (-) was empty");
    }
    return new Line(line.command(), line.options(), List.of(query), true, line.json()).args();
  }
}
