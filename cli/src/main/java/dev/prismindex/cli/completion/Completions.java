package dev.prismindex.cli.completion;

import dev.prismindex.cli.command.Requests.Shell;
import picocli.AutoComplete;
import picocli.CommandLine;

/** The completion script of a command line for one shell. */
public final class Completions {
  private Completions() {}

  /**
   * The script completing {@code commandLine} (the whole {@code prism-index} command, with its
   * subcommands) in {@code shell}, ending with a line feed.
   *
   * @throws IllegalArgumentException if the command line has no name
   */
  public static String script(Shell shell, CommandLine commandLine) {
    String name = commandLine.getCommandName();
    if (name == null || name.isBlank() || name.equals(CommandLine.Model.CommandSpec.DEFAULT_COMMAND_NAME)) {
      throw new IllegalArgumentException("a command line without a name has no completion");
    }
    String script = switch (shell) {
      // picocli's script serves both: sourced by zsh, it loads compinit and bashcompinit first.
      case BASH, ZSH -> AutoComplete.bash(name, commandLine);
      case FISH -> FishCompletion.script(commandLine);
    };
    return script.endsWith("\n") ? script : script + "\n";
  }
}
