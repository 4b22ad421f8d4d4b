package dev.prismindex.internal.regex;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Runs a {@link Program} over one line in time linear in the line's length times the program's
 * size, whatever the pattern ({@code (a+)+$} included): a backtracker that visits each
 * (instruction, position) pair at most once, remembered in a bitmap (RE2's "bit state"), for the
 * common case of a short line and a small program; else a Pike VM (every thread of the NFA stepped
 * in lockstep, in priority order). Both give the leftmost-first match (the first alternative that
 * matches wins, as in Perl, RE2 and ripgrep) and agree exactly. Positions are UTF-16 indices of the
 * line; the matcher steps over whole code points, and a lone surrogate (a byte that was not UTF-8)
 * is a code point no class holds.
 *
 * <p>Not thread-safe: it owns its work buffers, reused from line to line.
 */
public final class RegexMatcher {

  /** The largest bitmap, in bits, the backtracker may use; beyond it the Pike VM runs. */
  static final long BITSTATE_MAX_BITS = 1L << 22;

  private final Program prog;
  /** The one character every match starts with, when it is one BMP character; else -1. */
  private final int firstChar;
  /** The last search for {@link #firstChar}: in this text, from here, found there (or MAX). */
  private @Nullable String seenText;
  private int seenFrom;
  private int seenAt;
  /** The region of the text the current search sees as its line: [lo, hi). */
  private int lo;
  private int hi;
  private final int[] caps;
  private final int[] result;
  private int start = -1;
  private int end = -1;

  // Backtracker state.
  private long[] visited = new long[0];
  /** The position of the first state the bitmap holds. */
  private int base;
  private int[] stackPc = new int[64];
  private int[] stackPos = new int[64];

  // Pike VM state (allocated on first use).
  private Threads clist;
  private Threads nlist;
  private int[] closurePc;
  private int[] closureCaps;
  private int[] work;

  /** Forces one engine, for tests comparing them: 0 either, 1 backtracker, 2 Pike VM. */
  int force;
  /** The (instruction, position) states visited by the last {@link #find}, for tests. */
  long steps;

  public RegexMatcher(Program prog) {
    this.prog = prog;
    int single = prog.first == null ? -1 : prog.first.single();
    this.firstChar = single >= 0 && single < Character.MIN_SUPPLEMENTARY_CODE_POINT
        && !Character.isSurrogate((char) single) ? single : -1;
    this.caps = new int[prog.slots];
    this.result = new int[prog.slots];
  }

  /**
   * The code points a match can start with, or null when a match may be empty (then every
   * position can start one).
   */
  public @Nullable CodePointSet first() {
    return prog.first;
  }

  /** The start of the last match found (a UTF-16 index of the line). */
  public int start() {
    return start;
  }

  /** The end (exclusive) of the last match found. */
  public int end() {
    return end;
  }

  /**
   * Finds the leftmost-first match in {@code line} that starts at or after {@code from}, looking
   * at the text before {@code from} for assertions ({@code \b}, {@code ^}) as the whole line has
   * it.
   *
   * @return whether one was found ({@link #start()}, {@link #end()} then hold its span)
   */
  public boolean find(String line, int from) {
    return find(line, 0, line.length(), from);
  }

  /**
   * Finds the leftmost-first match in the line {@code text[lineStart, lineEnd)} that starts at or
   * after {@code from}: the region is the line ({@code ^} and {@code $} at its ends, nothing
   * outside it seen by a word boundary), so a whole file's text is searched line by line without
   * copying each line. {@link #start()} and {@link #end()} are indices of {@code text}.
   */
  public boolean find(String text, int lineStart, int lineEnd, int from) {
    if (from > lineEnd || from < lineStart) {
      return false;
    }
    this.lo = lineStart;
    this.hi = lineEnd;
    int n = lineEnd - lineStart;
    String line = text;
    long bits = (long) prog.size() * (n + 1);
    steps = 0;
    boolean found = force == 1 || (force == 0 && bits <= BITSTATE_MAX_BITS)
        ? backtrack(line, from, bits) : pike(line, from);
    if (!found) {
      start = -1;
      end = -1;
      return false;
    }
    start = result[2 * prog.reported];
    end = result[2 * prog.reported + 1];
    return true;
  }

  /** The position after the code point at {@code pos}. */
  private static int step(String s, int pos) {
    char c = s.charAt(pos);
    if (Character.isHighSurrogate(c) && pos + 1 < s.length()
        && Character.isLowSurrogate(s.charAt(pos + 1))) {
      return pos + 2;
    }
    return pos + 1;
  }

  /** The first position at or after {@code pos} where a match can start, or -1. */
  private int nextStart(String s, int pos) {
    CodePointSet first = prog.first;
    if (first == null) {
      return pos;
    }
    int n = hi;
    if (firstChar >= 0) {
      // One BMP character starts every match: the JVM's character search, which does not stop
      // at the line's end, so its answer is kept: no occurrence lies between a search's start and
      // its answer, and a later search from there reuses it (each text is scanned once).
      int at;
      if (s == seenText && pos >= seenFrom && pos <= seenAt) {
        at = seenAt;
      } else {
        at = s.indexOf(firstChar, pos);
        if (at < 0) {
          at = Integer.MAX_VALUE;
        }
        seenText = s;
        seenFrom = pos;
        seenAt = at;
      }
      return at < n ? at : -1;
    }
    while (pos < n) {
      if (first.contains(s.codePointAt(pos))) {
        return pos;
      }
      pos = step(s, pos);
    }
    return -1;
  }

  private boolean assertion(int kind, String s, int pos) {
    int n = hi;
    if (kind == Node.Kind.LINE_START.ordinal()) {
      return pos == lo;
    }
    if (kind == Node.Kind.LINE_END.ordinal()) {
      return pos == n;
    }
    if (kind == Node.Kind.NOT_AFTER_WORD.ordinal()) {
      return pos == lo || !UnicodeSets.isWord(s.codePointBefore(pos));
    }
    if (kind == Node.Kind.NOT_BEFORE_WORD.ordinal()) {
      return pos == n || !UnicodeSets.isWord(s.codePointAt(pos));
    }
    boolean before = pos > lo && UnicodeSets.isWord(s.codePointBefore(pos));
    boolean after = pos < n && UnicodeSets.isWord(s.codePointAt(pos));
    return kind == Node.Kind.WORD_BOUNDARY.ordinal() ? before != after : before == after;
  }

  // ---------------------------------------------------------------------------------------------
  // The backtracker

  private boolean backtrack(String s, int from, long bits) {
    int n = hi;
    int pos = nextStart(s, from);
    if (pos < 0) {
      return false; // no position can start a match: nothing to remember
    }
    // The states of positions from the first possible start on: base.
    base = pos;
    long needed = (long) prog.size() * (n - base + 1);
    int words = (int) ((needed + 63) >>> 6);
    if (visited.length < words) {
      visited = new long[Math.max(words, visited.length * 2)];
    } else {
      Arrays.fill(visited, 0, words, 0L);
    }
    while (true) {
      if (tryAt(s, pos, n)) {
        return true;
      }
      if (pos >= n) {
        return false;
      }
      pos = nextStart(s, step(s, pos));
      if (pos < 0) {
        return false;
      }
    }
  }

  private void push(int depth, int pc, int pos) {
    if (depth == stackPc.length) {
      stackPc = Arrays.copyOf(stackPc, depth * 2);
      stackPos = Arrays.copyOf(stackPos, depth * 2);
    }
    stackPc[depth] = pc;
    stackPos[depth] = pos;
  }

  private boolean tryAt(String s, int at, int n) {
    Arrays.fill(caps, -1);
    int[] op = prog.op;
    int[] x = prog.x;
    int[] y = prog.y;
    int width = n - base + 1;
    int depth = 0;
    push(depth++, 0, at);
    while (depth > 0) {
      depth--;
      int pc = stackPc[depth];
      int pos = stackPos[depth];
      if (pc < 0) {
        caps[-pc - 1] = pos; // undo a SAVE
        continue;
      }
      while (true) {
        long bit = (long) pc * width + (pos - base);
        int word = (int) (bit >>> 6);
        long mask = 1L << (bit & 63);
        if ((visited[word] & mask) != 0) {
          break;
        }
        visited[word] |= mask;
        steps++;
        int o = op[pc];
        if (o == Program.CHAR) {
          if (pos < n) {
            int cp = s.codePointAt(pos);
            if (cp == x[pc]) {
              pos += Character.charCount(cp);
              pc++;
              continue;
            }
          }
          break;
        } else if (o == Program.SET) {
          if (pos < n) {
            int cp = s.codePointAt(pos);
            if (prog.sets[x[pc]].contains(cp)) {
              pos = step(s, pos);
              pc++;
              continue;
            }
          }
          break;
        } else if (o == Program.SPLIT) {
          push(depth++, y[pc], pos);
          pc = x[pc];
        } else if (o == Program.JMP) {
          pc = x[pc];
        } else if (o == Program.SAVE) {
          int slot = x[pc];
          if (slot < caps.length) {
            push(depth++, -slot - 1, caps[slot]);
            caps[slot] = pos;
          }
          pc++;
        } else if (o == Program.ASSERT) {
          if (!assertion(x[pc], s, pos)) {
            break;
          }
          pc++;
        } else { // MATCH
          System.arraycopy(caps, 0, result, 0, caps.length);
          return true;
        }
      }
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // The Pike VM

  /** A list of threads in priority order, at most one per instruction (a sparse set). */
  private static final class Threads {
    final int[] dense;
    final int[] sparse;
    final int[] caps;
    final int slots;
    int size;

    Threads(int n, int slots) {
      dense = new int[n];
      sparse = new int[n];
      caps = new int[n * slots];
      this.slots = slots;
    }

    boolean contains(int pc) {
      int i = sparse[pc];
      return i < size && dense[i] == pc;
    }

    /** Adds {@code pc}; returns its index. */
    int add(int pc) {
      sparse[pc] = size;
      dense[size] = pc;
      return size++;
    }
  }

  private boolean pike(String s, int from) {
    int n = hi;
    int slots = prog.slots;
    if (clist == null) {
      clist = new Threads(prog.size(), slots);
      nlist = new Threads(prog.size(), slots);
      closurePc = new int[Math.max(16, prog.size())];
      closureCaps = new int[Math.max(16, prog.size()) * slots];
      work = new int[slots];
    }
    clist.size = 0;
    nlist.size = 0;
    boolean matched = false;
    int pos = from;
    int[] fresh = new int[slots];
    while (true) {
      if (!matched) {
        if (clist.size == 0) {
          int next = nextStart(s, pos);
          if (next < 0) {
            // Only a match that can be empty could still start, and then first is null.
            break;
          }
          pos = next;
        }
        Arrays.fill(fresh, -1);
        addThread(clist, 0, s, pos, fresh);
      }
      if (clist.size == 0) {
        break;
      }
      int nextPos = pos < n ? step(s, pos) : pos;
      int cp = pos < n ? s.codePointAt(pos) : -1;
      for (int i = 0; i < clist.size; i++) {
        int pc = clist.dense[i];
        int o = prog.op[pc];
        if (o == Program.MATCH) {
          matched = true;
          System.arraycopy(clist.caps, i * slots, result, 0, slots);
          break; // lower-priority threads are cut
        }
        boolean ok = o == Program.CHAR ? cp == prog.x[pc]
            : o == Program.SET && cp >= 0 && prog.sets[prog.x[pc]].contains(cp);
        if (ok) {
          System.arraycopy(clist.caps, i * slots, fresh, 0, slots);
          addThread(nlist, pc + 1, s, nextPos, fresh);
        }
      }
      if (pos >= n) {
        break;
      }
      pos = nextPos;
      Threads t = clist;
      clist = nlist;
      nlist = t;
      nlist.size = 0;
    }
    return matched;
  }

  /**
   * Adds the thread at {@code pc0} and its epsilon closure (jumps, splits in priority order, saves,
   * assertions at {@code pos}) to {@code list}, with the captures {@code threadCaps}.
   */
  private void addThread(Threads list, int pc0, String s, int pos, int[] threadCaps) {
    int slots = prog.slots;
    int depth = 0;
    pushClosure(depth++, pc0, threadCaps, 0);
    while (depth > 0) {
      depth--;
      int pc = closurePc[depth];
      System.arraycopy(closureCaps, depth * slots, work, 0, slots);
      while (!list.contains(pc)) {
        int index = list.add(pc);
        steps++;
        int o = prog.op[pc];
        if (o == Program.JMP) {
          pc = prog.x[pc];
        } else if (o == Program.SPLIT) {
          // The preferred branch runs now; the other waits with a copy of the captures.
          pushClosure(depth++, prog.y[pc], work, 0);
          pc = prog.x[pc];
        } else if (o == Program.SAVE) {
          int slot = prog.x[pc];
          if (slot < slots) {
            work[slot] = pos;
          }
          pc++;
        } else if (o == Program.ASSERT) {
          if (!assertion(prog.x[pc], s, pos)) {
            break;
          }
          pc++;
        } else {
          // CHAR, SET or MATCH: a thread that waits for the next step.
          System.arraycopy(work, 0, list.caps, index * slots, slots);
          break;
        }
      }
    }
  }

  private void pushClosure(int depth, int pc, int[] from, int offset) {
    int slots = prog.slots;
    if (depth >= closurePc.length) {
      closurePc = Arrays.copyOf(closurePc, closurePc.length * 2);
    }
    if ((depth + 1) * slots > closureCaps.length) {
      closureCaps = Arrays.copyOf(closureCaps, Math.max(closureCaps.length * 2,
          (depth + 1) * slots));
    }
    closurePc[depth] = pc;
    System.arraycopy(from, offset, closureCaps, depth * slots, slots);
  }
}
