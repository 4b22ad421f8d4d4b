package dev.prismindex.cli;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.ClusterBackend;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Flags;
import dev.prismindex.cli.command.Flags.RootFlags;
import dev.prismindex.cli.command.GrepOptions;
import dev.prismindex.cli.command.MaxCount;
import dev.prismindex.cli.command.OrganisationCommand;
import dev.prismindex.cli.command.Requests;
import dev.prismindex.cli.command.Requests.CompletionRequest;
import dev.prismindex.cli.command.Requests.DoctorRequest;
import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.McpRequest;
import dev.prismindex.cli.command.Requests.Request;
import dev.prismindex.cli.command.Requests.ServeRequest;
import dev.prismindex.cli.command.Requests.ServersRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.command.SearchRequest;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.command.WorkspaceBackend;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.completion.Completions;
import dev.prismindex.cli.doctor.Doctor;
import dev.prismindex.cli.mcp.McpCommand;
import dev.prismindex.cli.output.ExactPrinter;
import dev.prismindex.cli.output.HumanPrinter;
import dev.prismindex.cli.output.JsonPrinter;
import dev.prismindex.cli.output.OutputClosedException;
import dev.prismindex.cli.output.Printer;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.cli.output.Style;
import dev.prismindex.cli.output.TerminalProgress;
import dev.prismindex.cli.serve.ResidentServer;
import dev.prismindex.cli.serve.ServerRegistry;
import dev.prismindex.cli.serve.WarmBackend;
import dev.prismindex.opensearch.OpenSearchOptions;
import dev.prismindex.tool.SafeText;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command pipeline: parse the raw flags (picocli), validate them into a request, run it on a
 * {@link Backend}, print the result through the {@link Printer} of the output format, and map the
 * outcome to an exit code. Nothing here calls {@link System#exit}; errors are one line on stderr,
 * with a stack trace only under {@code --debug}.
 */
final class Cli {

  /** The commands, as usage errors name them. */
  private static final String COMMANDS =
      "index, search, status, serve, mcp, doctor or completion";

  private final PrintStream out;
  private final PrintStream err;
  private final Environment env;
  private final Function<Environment, Backend> backends;

  Cli(PrintStream out, PrintStream err, Environment env, Function<Environment, Backend> backends) {
    this.out = out;
    this.err = err;
    this.env = env;
    this.backends = backends;
  }

  /** Runs one command line and returns its exit code. */
  int run(String[] args) {
    boolean debug = List.of(args).contains("--debug");
    if (debug) {
      Environment.debugLogging();
    }
    ParserPool.Parser parser = ParserPool.take();
    try {
      return run(args, debug, parser.commandLine());
    } finally {
      ParserPool.give(parser);
    }
  }

  private int run(String[] args, boolean debug, CommandLine cl) {
    // Help and version go to this run's streams.
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    String command = "prism-index";
    try {
      ParseResult parsed;
      Arguments.Line line;
      try {
        line = Arguments.sort(cl, args);
      } catch (CliFailure e) {
        command = Arguments.qualifiedName(cl, args);
        throw e;
      }
      try {
        parsed = cl.parseArgs(line.args());
      } catch (ParameterException e) {
        command = e.getCommandLine().getCommandSpec().qualifiedName();
        if (e instanceof UnmatchedArgumentException u && e.getCommandLine() == cl
            && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
          throw CliFailure.usage("unknown command '" + u.getUnmatched().get(0)
              + "': expected " + COMMANDS + " (see `prism-index --help`)");
        }
        if (e instanceof UnmatchedArgumentException u) {
          String option = u.getUnmatched().stream().filter(a -> a.startsWith("-")).findFirst()
              .orElse(null);
          if (option != null) {
            // Name the unknown option alone (never the query after it) and the closest one.
            List<String> close = u.getSuggestions();
            throw CliFailure.usage("unknown option '" + option + "'"
                + (close.isEmpty() ? "" : "; did you mean " + close.get(0) + "?") + " (see `"
                + command + " --help`)");
          }
        }
        throw CliFailure.usage(lowerFirst(firstLine(e.getMessage())) + " (see `" + command
            + " --help`)");
      }
      if (CommandLine.printHelpIfRequested(parsed)) {
        out.flush();
        return ExitCode.OK;
      }
      if (!parsed.hasSubcommand()) {
        throw CliFailure.usage("missing command: " + COMMANDS + " (see `prism-index --help`)");
      }
      ParseResult sub = parsed.subcommand();
      command = sub.commandSpec().qualifiedName();
      List<String> types = Requests.typeList(sub.commandSpec().userObject());
      if (types != null) {
        for (String type : types) {
          out.println(type);
        }
        out.flush();
        return ExitCode.OK;
      }
      RootFlags root = cl.getCommand();
      CompletionRequest completion = Requests.completion(sub.commandSpec().userObject());
      if (completion != null) {
        // The script of this very command line: it cannot drift from the options it completes.
        out.print(Completions.script(completion.shell(), cl));
        out.flush();
        return ExitCode.OK;
      }
      ServersRequest servers = Requests.servers(sub.commandSpec().userObject());
      if (servers != null) {
        return ServerRegistry.run(servers, env, out, err);
      }
      GrepOptions grep = Requests.grepOptions(sub.commandSpec().userObject());
      Request request = Requests.validate(root, sub.commandSpec().userObject(), env);
      OpenSearchOptions cluster = ClusterBackend.select(root, env);
      if (cluster != null && request.target().workspace()) {
        throw CliFailure.usage("a workspace searches local indexes; --backend opensearch takes"
            + " one --repo");
      }
      if (cluster != null && request instanceof ServeRequest) {
        throw CliFailure.usage(command + " serves the local index only; --backend opensearch"
            + " works with index, search, status and mcp");
      }
      OrganisationCommand organisation = OrganisationCommand.of(sub.commandSpec().userObject(),
          root, env, cluster != null);
      if (organisation != null && cluster != null) {
        Printer orgPrinter = request.json() ? new JsonPrinter(out, err)
            : new HumanPrinter(out, err, Style.of(env.colour()));
        int code = organisation.run(request, cluster, orgPrinter, out, err);
        out.flush();
        return out.checkError() ? ExitCode.OK : code;
      }
      if (request instanceof ServeRequest r) {
        return ResidentServer.serve(r, env, err, new ResidentServer.CommandRunner() {
          @Override
          public int run(String[] a, PrintStream o, PrintStream e, Environment requestEnv,
              Backend backend) {
            return new Cli(o, e, requestEnv, x -> backend).run(a);
          }

          @Override
          public void prepare() {
            ParserPool.prepare();
          }
        });
      }
      Printer printer = request.json() ? new JsonPrinter(out, err)
          : new HumanPrinter(out, err, Style.of(grep.colour().on(env)), grep.layout());
      int code = execute(request,
          cluster != null ? new ClusterBackend(env, cluster) : backends.apply(env), printer);
      out.flush();
      return out.checkError() ? ExitCode.OK : code;
    } catch (OutputClosedException e) {
      return ExitCode.OK;
    } catch (CliFailure e) {
      report(command, e.getMessage(), debug ? e : null);
      return e.exitCode();
    } catch (UncheckedIOException e) {
      report(command, "error: " + message(e.getCause()), debug ? e : null);
      return ExitCode.FAILURE;
    } catch (Exception | LinkageError | AssertionError e) {
      report(command, "error: " + message(e), debug ? e : null);
      return ExitCode.FAILURE;
    } catch (OutOfMemoryError e) {
      report(command, "error: out of memory (" + message(e) + ")", debug ? e : null);
      return ExitCode.FAILURE;
    }
  }

  private int execute(Request request, Backend backend, Printer printer)
      throws Exception {
    if (request instanceof McpRequest r && backend instanceof ClusterBackend) {
      // The cluster keeps the index; each tool call runs against it.
      return McpCommand.serve(r, backend, env, System.in, out, err);
    }
    if (request instanceof McpRequest r) {
      // The index and the model stay open across the session's calls.
      try (WarmBackend warm = WarmBackend.watching(env, "mcp", null)) {
        return McpCommand.serve(r, warm, env, System.in, out, err);
      }
    }
    if (request instanceof DoctorRequest r) {
      return Doctor.run(r, env, backend, out);
    }
    if (request instanceof SearchRequest r) {
      if (r.exact()) {
        // Every match, printed as it is found (grep's way), in path and line order.
        ExactPrinter exact = printer.exact(r.query());
        exact.end(backend.stream(r, exact));
      } else {
        printer.search(r.maxPerFile() == 0 ? backend.search(r)
            : MaxCount.search(backend, r, r.maxPerFile()));
      }
      return ExitCode.OK;
    }
    if (request instanceof IndexRequest r && r.target().workspace()) {
      return indexWorkspace(r, backend, printer);
    }
    if (request instanceof IndexRequest r) {
      try (Progress progress = env.stderrTerminal() ? new TerminalProgress(err) : Progress.NONE) {
        var summary = backend.index(r, progress);
        progress.close();
        printer.index(summary);
      }
      return ExitCode.OK;
    }
    StatusReport report = backend.status((StatusRequest) request);
    printer.status(report);
    if (!report.state().searchable()) {
      out.flush();
      throw new CliFailure(ExitCode.INDEX, String.valueOf(report.problem()));
    }
    return ExitCode.OK;
  }

  /**
   * {@code index} of a workspace: each repository in turn ({@link WorkspaceBackend#indexEach}),
   * each summary printed as it ends, in human output after a line naming the repository.
   */
  private int indexWorkspace(IndexRequest r, Backend backend, Printer printer) throws Exception {
    WorkspaceBackend.indexEach(backend, r,
        () -> env.stderrTerminal() ? new TerminalProgress(err) : Progress.NONE,
        new WorkspaceBackend.IndexSink() {
          @Override
          public void indexed(Target.Member m, IndexSummary summary) {
            if (!r.json()) {
              out.println(SafeText.escapeField("repository " + m.name() + " ("
                  + m.target().root() + ")"));
            }
            printer.index(summary);
          }

          @Override
          public void skipped(Target.Member m, String note) {
            err.println(SafeText.escapeField("prism-index index: note: " + note));
          }
        });
    return ExitCode.OK;
  }

  /**
   * The command line with a query given as {@code -} read from {@code in} (see
   * {@link Arguments#withStdinQuery}); null after printing the usage error when it cannot be read.
   * Runs before a command is offered to a resident server, which cannot read this stdin.
   */
  static String @Nullable [] withStdinQuery(String[] args, InputStream in, PrintStream err) {
    if (!List.of(args).contains(Arguments.STDIN)) {
      return args;
    }
    CommandLine cl = parser();
    try {
      return Arguments.withStdinQuery(cl, args, in);
    } catch (CliFailure e) {
      err.println(SafeText.escapeField(Arguments.qualifiedName(cl, args) + ": " + e.getMessage()));
      err.flush();
      return null;
    }
  }

  /**
   * The picocli model of the whole command line (its definition: the {@link Flags}), as every run
   * configures it (the docs' commands are checked against it).
   */
  static CommandLine parser() {
    CommandLine cl = new CommandLine(new Flags.RootFlags());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setOverwrittenOptionsAllowed(true);
    inFixedOrder(cl.getCommandSpec());
    return cl;
  }

  /**
   * Puts the options of annotated methods ({@code -i}, {@code -s}, {@code -S}) after the others in
   * the order of their longest names: picocli lists them in the order reflection returns methods,
   * which HotSpot does not fix (it differs with and without a CDS archive), so help and the
   * completion scripts came out in a different order from one JVM to another.
   */
  private static void inFixedOrder(CommandLine.Model.CommandSpec spec) {
    List<CommandLine.Model.OptionSpec> methods = spec.options().stream()
        .filter(o -> o.userObject() instanceof java.lang.reflect.Method)
        .sorted(java.util.Comparator.comparing(CommandLine.Model.OptionSpec::longestName))
        .toList();
    for (CommandLine.Model.OptionSpec option : methods) {
      spec.remove(option);
      spec.addOption(option);
    }
    spec.subcommands().values().forEach(sub -> inFixedOrder(sub.getCommandSpec()));
  }

  /**
   * Prints the error as one line (and, under {@code --debug}, the stack trace) through core's
   * {@link SafeText}, as human output is: a line break in a message shows as {@code \n}, and a path
   * in it cannot drive the terminal.
   */
  private void report(String command, String message, @Nullable Throwable trace) {
    err.println(SafeText.escapeField(command + ": " + message.strip()));
    if (trace != null) {
      StringWriter text = new StringWriter();
      trace.printStackTrace(new PrintWriter(text));
      for (String line : text.toString().split("\\R")) {
        err.println(SafeText.escape(line));
      }
    }
    err.flush();
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : e.getClass().getSimpleName()
        + ": " + m;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }

  private static String lowerFirst(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }
}
