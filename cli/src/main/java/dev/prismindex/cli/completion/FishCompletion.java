package dev.prismindex.cli.completion;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A fish completion script written from a picocli command model (picocli 4.7 generates bash and
 * zsh only): one {@code complete} line per subcommand, per visible option of the root command
 * (before a subcommand) and of each subcommand (after it), and per positional parameter with
 * completion candidates. An option that takes a value completes its candidates (an enum's
 * values or a {@code completionCandidates} class), directories for a {@code DIR}, files for a
 * {@code FILE}, and nothing else otherwise; arguments never complete to files unless so.
 */
final class FishCompletion {
  private FishCompletion() {}

  static String script(CommandLine commandLine) {
    CommandSpec root = commandLine.getCommandSpec();
    String name = root.name();
    String version = String.join(" ", root.version());
    StringBuilder s = new StringBuilder();
    s.append("# fish completion for ").append(name)
        .append(version.isEmpty() ? "" : " (" + version + ")")
        .append(", generated from its command line by `").append(name)
        .append(" completion fish`.\n")
        .append("# Install: ").append(name).append(" completion fish > ~/.config/fish/completions/")
        .append(name).append(".fish\n\n")
        .append("complete -c ").append(name).append(" -e\n")
        .append("complete -c ").append(name).append(" -f\n");
    String top = "__fish_use_subcommand";
    Map<String, CommandLine> subcommands = commandLine.getSubcommands();
    s.append('\n');
    for (Map.Entry<String, CommandLine> e : subcommands.entrySet()) {
      CommandSpec sub = e.getValue().getCommandSpec();
      if (sub.usageMessage().hidden()) {
        continue;
      }
      s.append("complete -c ").append(name).append(" -n ").append(quote(top))
          .append(" -a ").append(quote(e.getKey()))
          .append(" -d ").append(quote(summary(sub.usageMessage().description()))).append('\n');
    }
    options(s, name, top, root);
    for (Map.Entry<String, CommandLine> e : subcommands.entrySet()) {
      CommandSpec sub = e.getValue().getCommandSpec();
      if (sub.usageMessage().hidden()) {
        continue;
      }
      s.append('\n');
      String condition = "__fish_seen_subcommand_from " + e.getKey();
      options(s, name, condition, sub);
      for (PositionalParamSpec p : sub.positionalParameters()) {
        List<String> candidates = candidates(p.completionCandidates());
        if (!p.hidden() && !candidates.isEmpty()) {
          s.append("complete -c ").append(name).append(" -n ").append(quote(condition))
              .append(" -a ").append(quote(String.join(" ", candidates)))
              .append(" -d ").append(quote(summary(p.description()))).append('\n');
        }
      }
    }
    return s.toString();
  }

  private static void options(StringBuilder s, String name, String condition, CommandSpec spec) {
    for (OptionSpec o : spec.options()) {
      if (o.hidden()) {
        continue;
      }
      s.append("complete -c ").append(name).append(" -n ").append(quote(condition));
      for (String n : o.names()) {
        if (n.startsWith("--")) {
          s.append(" -l ").append(n.substring(2));
        } else if (n.length() == 2 && n.startsWith("-")) {
          s.append(" -s ").append(n.substring(1));
        } else {
          s.append(" -o ").append(n.replaceFirst("^-", ""));
        }
      }
      if (o.arity().max() > 0) {
        List<String> candidates = candidates(o.completionCandidates());
        String label = o.paramLabel().replaceAll("[<>]", "").toUpperCase(Locale.ROOT);
        if (!candidates.isEmpty()) {
          s.append(" -x -a ").append(quote(String.join(" ", candidates)));
        } else if (label.equals("DIR")) {
          s.append(" -x -a ").append(quote("(__fish_complete_directories (commandline -ct))"));
        } else if (label.equals("FILE")) {
          s.append(" -r -F");
        } else {
          s.append(" -x");
        }
      }
      s.append(" -d ").append(quote(summary(o.description()))).append('\n');
    }
  }

  private static List<String> candidates(@Nullable Iterable<String> values) {
    List<String> out = new ArrayList<>();
    if (values != null) {
      values.forEach(out::add);
    }
    return out;
  }

  /** The first sentence of a description, without its full stop. */
  static String summary(String[] description) {
    String text = String.join(" ", description).strip().replaceAll("\\s+", " ");
    int end = text.indexOf(". ");
    if (end >= 0) {
      text = text.substring(0, end);
    }
    return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
  }

  /** A fish single-quoted string: only {@code \} and {@code '} need escaping inside one. */
  static String quote(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
