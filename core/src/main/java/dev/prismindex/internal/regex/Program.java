package dev.prismindex.internal.regex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A pattern compiled to the instructions of a Thompson NFA, run by {@link RegexMatcher}. Immutable
 * and thread-safe.
 */
public final class Program {

  static final int CHAR = 0;
  static final int SET = 1;
  static final int SPLIT = 2;
  static final int JMP = 3;
  static final int SAVE = 4;
  static final int ASSERT = 5;
  static final int MATCH = 6;

  /** The most instructions a pattern may compile to. */
  public static final int MAX_INSTRUCTIONS = 200_000;

  final int[] op;
  final int[] x;
  final int[] y;
  final CodePointSet[] sets;
  /** Capture slots: 2 per group, group 0 the whole match. */
  final int slots;
  /** The group whose span is reported: 0, or 1 for a pattern wrapped for whole words. */
  final int reported;
  /** The code points a match can start with, or null when a match may be empty. */
  final @Nullable CodePointSet first;

  private Program(int[] op, int[] x, int[] y, CodePointSet[] sets, int slots, int reported,
      @Nullable CodePointSet first) {
    this.op = op;
    this.x = x;
    this.y = y;
    this.sets = sets;
    this.slots = slots;
    this.reported = reported;
    this.first = first;
  }

  /** The number of instructions. */
  public int size() {
    return op.length;
  }

  /**
   * Compiles {@code node}; matches report the span of group {@code reported} (0, the whole match,
   * or the {@link Node.Capture} of that index).
   *
   * @throws IllegalArgumentException when the program would exceed {@link #MAX_INSTRUCTIONS}
   */
  public static Program compile(Node node, int reported) {
    Builder b = new Builder();
    b.emit(Program.SAVE, 0, 0);
    b.compile(node);
    b.emit(Program.SAVE, 1, 0);
    b.emit(Program.MATCH, 0, 0);
    int slots = 2 * (Math.max(reported, b.maxGroup) + 1);
    CodePointSet first = Analysis.nullable(node) ? null : Analysis.first(node);
    return new Program(Arrays.copyOf(b.op, b.n), Arrays.copyOf(b.x, b.n), Arrays.copyOf(b.y, b.n),
        b.sets.toArray(new CodePointSet[0]), slots, reported, first);
  }

  private static final class Builder {
    int[] op = new int[64];
    int[] x = new int[64];
    int[] y = new int[64];
    int n;
    int maxGroup;
    final List<CodePointSet> sets = new ArrayList<>();

    int emit(int o, int a, int b) {
      if (n == MAX_INSTRUCTIONS) {
        throw new IllegalArgumentException("the pattern is too large (over " + MAX_INSTRUCTIONS
            + " instructions once its repetitions are expanded)");
      }
      if (n == op.length) {
        op = Arrays.copyOf(op, n * 2);
        x = Arrays.copyOf(x, n * 2);
        y = Arrays.copyOf(y, n * 2);
      }
      op[n] = o;
      x[n] = a;
      y[n] = b;
      return n++;
    }

    void compile(Node node) {
      if (node instanceof Node.Chars c) {
        int single = c.set().single();
        if (single >= 0) {
          emit(CHAR, single, 0);
        } else {
          sets.add(c.set());
          emit(SET, sets.size() - 1, 0);
        }
      } else if (node instanceof Node.Concat c) {
        for (Node item : c.items()) {
          compile(item);
        }
      } else if (node instanceof Node.Alternate a) {
        List<Integer> jumps = new ArrayList<>();
        List<Node> items = a.items();
        for (int i = 0; i < items.size(); i++) {
          if (i < items.size() - 1) {
            int split = emit(SPLIT, 0, 0);
            x[split] = n;
            compile(items.get(i));
            jumps.add(emit(JMP, 0, 0));
            y[split] = n;
          } else {
            compile(items.get(i));
          }
        }
        for (int j : jumps) {
          x[j] = n;
        }
      } else if (node instanceof Node.Repeat r) {
        repeat(r);
      } else if (node instanceof Node.Capture c) {
        maxGroup = Math.max(maxGroup, c.index());
        emit(SAVE, 2 * c.index(), 0);
        compile(c.item());
        emit(SAVE, 2 * c.index() + 1, 0);
      } else if (node instanceof Node.Assert a) {
        emit(ASSERT, a.kind().ordinal(), 0);
      }
      // Node.Empty: nothing to emit.
    }

    private void repeat(Node.Repeat r) {
      int min = r.min();
      int max = r.max();
      Node item = r.item();
      if (max == -1) {
        for (int i = 0; i < min - 1; i++) {
          compile(item);
        }
        if (min >= 1) {
          // item+ : L: item; SPLIT L, out
          int loop = n;
          compile(item);
          int split = emit(SPLIT, 0, 0);
          branch(split, loop, n, r.greedy());
        } else {
          // item* : L: SPLIT body, out; body: item; JMP L; out:
          int split = emit(SPLIT, 0, 0);
          int body = n;
          compile(item);
          emit(JMP, split, 0);
          branch(split, body, n, r.greedy());
        }
        return;
      }
      for (int i = 0; i < min; i++) {
        compile(item);
      }
      // (item(item(...)?)?)? for the optional copies, every skip going to the end.
      List<Integer> splits = new ArrayList<>();
      for (int i = min; i < max; i++) {
        int split = emit(SPLIT, 0, 0);
        splits.add(split);
        x[split] = n;
        compile(item);
      }
      for (int split : splits) {
        branch(split, x[split], n, r.greedy());
      }
    }

    /** Points {@code split} at {@code more} first when greedy, else at {@code done} first. */
    private void branch(int split, int more, int done, boolean greedy) {
      x[split] = greedy ? more : done;
      y[split] = greedy ? done : more;
    }
  }

  /** The first-character and empty-match analysis behind {@link #first}. */
  static final class Analysis {
    private Analysis() {}

    /** Whether {@code node} can match the empty string. */
    static boolean nullable(Node node) {
      if (node instanceof Node.Chars) {
        return false;
      }
      if (node instanceof Node.Concat c) {
        return c.items().stream().allMatch(Analysis::nullable);
      }
      if (node instanceof Node.Alternate a) {
        return a.items().stream().anyMatch(Analysis::nullable);
      }
      if (node instanceof Node.Repeat r) {
        return r.min() == 0 || nullable(r.item());
      }
      if (node instanceof Node.Capture c) {
        return nullable(c.item());
      }
      return true; // Empty, Assert
    }

    /** The code points a non-empty match of {@code node} can start with. */
    static CodePointSet first(Node node) {
      if (node instanceof Node.Chars c) {
        return c.set();
      }
      if (node instanceof Node.Concat c) {
        CodePointSet out = CodePointSet.EMPTY;
        for (Node item : c.items()) {
          out = out.union(first(item));
          if (!nullable(item)) {
            break;
          }
        }
        return out;
      }
      if (node instanceof Node.Alternate a) {
        CodePointSet out = CodePointSet.EMPTY;
        for (Node item : a.items()) {
          out = out.union(first(item));
        }
        return out;
      }
      if (node instanceof Node.Repeat r) {
        return r.max() == 0 ? CodePointSet.EMPTY : first(r.item());
      }
      if (node instanceof Node.Capture c) {
        return first(c.item());
      }
      return CodePointSet.EMPTY; // Empty, Assert
    }
  }
}
