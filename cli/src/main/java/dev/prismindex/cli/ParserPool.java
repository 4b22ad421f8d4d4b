package dev.prismindex.cli;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Command-line models kept for reuse: building one (picocli reads every option's annotations) cost
 * a resident server more CPU than answering a search without hits. A model is taken by one run at
 * a time ({@link #take}) and given back after it ({@link #give}); two runs at once never share one.
 *
 * <p>picocli resets an option bound to a field before each parse, but not one bound to a setter
 * method (remkop/picocli#1531), nor state such a setter writes (the search's last case flag). So a
 * model taken again is reset here first: every non-static field of every object the model binds
 * (each command's and each mixin's, help flags included) gets back the value it had when the model
 * was built. {@code ParserPoolTest} checks that no option of any command carries over.
 */
final class ParserPool {

  /** Idle models kept at most (requests answered at once each need one). */
  static final int KEEP = 4;

  private static final ConcurrentLinkedQueue<Parser> IDLE = new ConcurrentLinkedQueue<>();

  private ParserPool() {}

  /** A model no other run holds, reset to how it was built (a new one when none is idle). */
  static Parser take() {
    Parser idle = IDLE.poll();
    if (idle == null) {
      return new Parser(Cli.parser());
    }
    idle.reset();
    return idle;
  }

  /** Gives a model back once its run no longer reads it (or its flags). */
  static void give(Parser parser) {
    if (IDLE.size() < KEEP) {
      IDLE.add(parser);
    }
  }

  /** Builds an idle model ahead of the next run when none waits (a server, between answers). */
  static void prepare() {
    if (IDLE.isEmpty()) {
      IDLE.add(new Parser(Cli.parser()));
    }
  }

  /** One command-line model and the initial values of the fields it writes. */
  static final class Parser {
    private final CommandLine commandLine;
    private final List<Field> fields = new ArrayList<>();
    private final List<Object> owners = new ArrayList<>();
    private final List<Object> initial = new ArrayList<>();

    Parser(CommandLine commandLine) {
      this.commandLine = commandLine;
      boundObjects(commandLine.getCommandSpec(), owner -> {
        for (Class<?> c = owner.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
          for (Field f : c.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || Modifier.isFinal(f.getModifiers())
                || f.isSynthetic()) {
              continue;
            }
            f.setAccessible(true);
            fields.add(f);
            owners.add(owner);
            initial.add(get(f, owner));
          }
        }
      });
    }

    /** The picocli model. */
    CommandLine commandLine() {
      return commandLine;
    }

    /** Puts back every field's initial value. */
    void reset() {
      for (int i = 0; i < fields.size(); i++) {
        try {
          fields.get(i).set(owners.get(i), initial.get(i));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException("cannot reset " + fields.get(i), e);
        }
      }
    }

    private static Object get(Field f, Object owner) {
      try {
        return f.get(owner);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + f, e);
      }
    }
  }

  /**
   * Each object {@code spec}'s model writes, once: the commands' (subcommands included) and their
   * mixins' user objects.
   */
  static void boundObjects(CommandSpec spec, Consumer<Object> each) {
    boundObjects(spec, each, Collections.newSetFromMap(new IdentityHashMap<>()));
  }

  private static void boundObjects(CommandSpec spec, Consumer<Object> each, Set<Object> seen) {
    Object user = spec.userObject();
    if (user != null && seen.add(user)) {
      each.accept(user);
    }
    for (CommandSpec mixin : spec.mixins().values()) {
      boundObjects(mixin, each, seen);
    }
    for (CommandLine sub : spec.subcommands().values()) {
      boundObjects(sub.getCommandSpec(), each, seen);
    }
  }
}
