package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A reused command-line model parses as a fresh one does: for every option and positional
 * parameter of every command (read from the model itself, so a new option is covered as soon as
 * it exists), a command line setting it, then one without it, leaves the model in exactly the
 * state a fresh model reaches on the second command line (every field of every object it binds).
 */
class ParserPoolTest {

  @Test
  void noOptionOfAnyCommandCarriesOver() {
    List<List<String>> settings = settings();
    assertThat(settings).hasSizeGreaterThan(40);
    List<String> problems = new ArrayList<>();
    ParserPool.Parser reused = new ParserPool.Parser(Cli.parser());
    Map<List<String>, Map<String, Object>> fresh = new HashMap<>();
    for (List<String> setting : settings) {
      String command = setting.get(0);
      List<String> without = List.of(command);
      for (List<String> second : List.of(without, setting)) {
        reused.reset();
        parse(reused.commandLine(), setting);
        reused.reset();
        Map<String, Object> again = parse(reused.commandLine(), second);
        Map<String, Object> want = fresh.computeIfAbsent(second, l -> parse(Cli.parser(), l));
        if (!again.equals(want)) {
          problems.add(setting + " then " + second + ": " + difference(again, want));
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theLastCaseFlagWinsOnAReusedModelAsOnAFreshOne() {
    ParserPool.Parser reused = new ParserPool.Parser(Cli.parser());
    List<List<String>> lines = List.of(List.of("search", "-i", "q"), List.of("search", "q"),
        List.of("search", "-S", "-i", "q"), List.of("search", "-s", "q"),
        List.of("search", "-i", "-s", "q"), List.of("search", "q"));
    for (List<String> line : lines) {
      reused.reset();
      assertThat(parse(reused.commandLine(), line)).as("%s", line)
          .isEqualTo(parse(Cli.parser(), line));
    }
  }

  @Test
  void noCommandHasAnArgumentGroupTheResetWouldMiss() {
    // ParserPool resets the objects of commands and mixins; an @ArgGroup's would need adding.
    each(Cli.parser().getCommandSpec(), spec -> assertThat(spec.argGroups())
        .as(spec.qualifiedName()).isEmpty());
  }

  @Test
  void runsAtOnceNeverShareAModel() throws Exception {
    ParserPool.Parser a = ParserPool.take();
    ParserPool.Parser b = ParserPool.take();
    assertThat(a).isNotSameAs(b);
    ParserPool.give(a);
    ParserPool.give(b);

    // Threads parsing different command lines through the pool each see their own line's flags
    // (as a model reset before each line sees them: noOptionOfAnyCommandCarriesOver).
    List<List<String>> settings = settings();
    Map<List<String>, Map<String, Object>> expected = new HashMap<>();
    ParserPool.Parser one = new ParserPool.Parser(Cli.parser());
    for (List<String> s : settings) {
      one.reset();
      expected.put(s, parse(one.commandLine(), s));
    }
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<String>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int offset = t;
        results.add(pool.submit(() -> {
          start.await();
          List<String> wrong = new ArrayList<>();
          for (int i = 0; i < 100; i++) {
            List<String> line = settings.get((i * 7 + offset * 13) % settings.size());
            ParserPool.Parser p = ParserPool.take();
            try {
              Map<String, Object> got = parse(p.commandLine(), line);
              Thread.yield();
              if (!got.equals(state(p.commandLine()))) {
                wrong.add(line + ": changed while held");
              } else if (!got.equals(expected.get(line))) {
                wrong.add(line + ": " + difference(got, expected.get(line)));
              }
            } finally {
              ParserPool.give(p);
            }
          }
          return wrong;
        }));
      }
      start.countDown();
      List<String> wrong = new ArrayList<>();
      for (Future<List<String>> f : results) {
        wrong.addAll(f.get(60, TimeUnit.SECONDS));
      }
      assertThat(wrong).isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One command line per option and positional of every command: the command, then the option
   * (with a value when it takes one), or two query words.
   */
  private static List<List<String>> settings() {
    List<List<String>> settings = new ArrayList<>();
    CommandLine root = Cli.parser();
    for (Map.Entry<String, CommandLine> e : root.getSubcommands().entrySet()) {
      CommandSpec spec = e.getValue().getCommandSpec();
      for (OptionSpec option : spec.options()) {
        List<String> line = new ArrayList<>(List.of(e.getKey(), option.longestName()));
        if (option.arity().min() > 0) {
          line.add(value(option));
        }
        settings.add(line);
      }
      for (PositionalParamSpec p : spec.positionalParameters()) {
        settings.add(p.arity().max() > 1 ? List.of(e.getKey(), "one", "two")
            : List.of(e.getKey(), "bash"));
      }
    }
    return settings;
  }

  /** A value the option's type parses: a completion candidate when it offers some. */
  private static String value(OptionSpec option) {
    Class<?> type = option.auxiliaryTypes()[0];
    if (type == Integer.class || type == int.class) {
      return "3";
    }
    if (option.completionCandidates() != null) {
      for (String candidate : option.completionCandidates()) {
        return candidate;
      }
    }
    return "x";
  }

  private static Map<String, Object> parse(CommandLine cl, List<String> line) {
    cl.parseArgs(line.toArray(String[]::new));
    return state(cl);
  }

  /** Every field of every object the model binds, by class and name (mixins by class only). */
  private static Map<String, Object> state(CommandLine cl) {
    Map<String, Object> state = new LinkedHashMap<>();
    ParserPool.boundObjects(cl.getCommandSpec(), owner -> {
      for (Class<?> c = owner.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
            continue;
          }
          f.setAccessible(true);
          try {
            state.put(owner.getClass().getName() + "#" + f.getName(), comparable(f.get(owner)));
          } catch (IllegalAccessException e) {
            throw new AssertionError(e);
          }
        }
      }
    });
    assertThat(state).hasSizeGreaterThan(40);
    return state;
  }

  private static Object comparable(Object value) {
    if (value == null || value instanceof String || value instanceof Boolean
        || value instanceof Number || value instanceof Enum<?>) {
      return value;
    }
    if (value instanceof List<?> list) {
      return new ArrayList<>(list);
    }
    return "a " + value.getClass().getName();
  }

  private static String difference(Map<String, Object> got, Map<String, Object> want) {
    Map<String, String> d = new LinkedHashMap<>();
    want.forEach((k, v) -> {
      if (!java.util.Objects.equals(got.get(k), v)) {
        d.put(k, got.get(k) + " (fresh: " + v + ")");
      }
    });
    return d.toString();
  }

  private static void each(CommandSpec spec, java.util.function.Consumer<CommandSpec> action) {
    action.accept(spec);
    for (CommandLine sub : spec.subcommands().values()) {
      each(sub.getCommandSpec(), action);
    }
  }
}
