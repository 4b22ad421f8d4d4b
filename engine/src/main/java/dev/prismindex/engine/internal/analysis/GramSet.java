package dev.prismindex.engine.internal.analysis;

import dev.prismindex.engine.internal.NativeLibrary;
import dev.prismindex.engine.spi.FileGrams;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The distinct n-grams of a file ({@link Grams}: trigrams, and the bigram of a two-unit line), each
 * packed into one {@code long} (length in bits 48-49, the units in bits 32-47, 16-31 and 0-15) in
 * an open-addressing hash set, without a {@code String} per gram: building the gram set of a file
 * was the largest allocation of the indexing pipeline. What it gives ({@link #grams()}, {@link
 * #sortedGrams()}: the values of the gram index) leaves out the {@linkplain Grams#isCommon common trigrams}. The
 * grams of an ASCII file are found by the engine's native library where it is loaded ({@link
 * #ofAsciiFile}): the same set, in one call per file, as bits (one per possible ASCII gram, so no
 * hashing) read out in ascending order (so no sorting).
 */
public final class GramSet implements FileGrams {

  private static final Logger LOG = LoggerFactory.getLogger(GramSet.class);

  /** The common trigrams, packed, in a set of their own. */
  private static final GramSet COMMON = new GramSet();

  static {
    for (String g : Grams.common()) {
      COMMON.addLine(g);
    }
  }

  /**
   * The bits of the native sets ({@link #ofAsciiFile}): one per gram of 7-bit units, the bigrams'
   * 2^14 bits then the trigrams' 2^21, each in the order of its units, so of the packed keys.
   */
  private static final int BIGRAM_BITS = 1 << 14;
  static final int GRAM_WORDS = (BIGRAM_BITS + (1 << 21)) / 64;
  /** A thread's bits for the native library: the gram words, then a summary bit per word. */
  static final int SCRATCH_WORDS = GRAM_WORDS + GRAM_WORDS / 64;

  private long[] table;
  private int size;
  /** The packed grams of a set found natively ({@link #ofAsciiFile}), else null. */
  private final long @Nullable [] found;

  /** An empty set. */
  public GramSet() {
    this(0);
  }

  /**
   * The grams of a file: of each of its {@code lines} and of its {@code path}, in a set sized from
   * the text's length so that it seldom has to grow.
   */
  public static GramSet ofFile(List<String> lines, String path) {
    long chars = path.length();
    for (String line : lines) {
      chars += line.length();
    }
    GramSet grams = new GramSet(chars);
    for (String line : lines) {
      grams.addLine(line);
    }
    grams.addLine(path);
    return grams;
  }

  /**
   * The grams of a file from its bytes, {@code utf8[0..length)}, when every byte of them and of
   * {@code path} is ASCII and the native library is loaded: the set {@link #ofFile} gives for the
   * lines of their text (split as {@code SourceLines} splits them) and {@code path}, found and
   * packed natively. Null otherwise (also when the native code runs out of memory), for {@link
   * #ofFile}. No line can be added to it.
   */
  public static @Nullable GramSet ofAsciiFile(byte[] utf8, int length, String path) {
    if (length < 0 || length > utf8.length) {
      throw new IndexOutOfBoundsException("length " + length + " of " + utf8.length);
    }
    if (!Native.ON) {
      return null;
    }
    long[] found;
    try {
      found = asciiGrams(utf8, length, path.getBytes(StandardCharsets.UTF_8),
          Native.COMMON_BITS, Native.SCRATCH.get());
    } catch (NativeLibrary.NativeMemoryException e) {
      LOG.warn("{} ({} bytes of {}); finding its n-grams in Java", e.getMessage(), length, path);
      return null; // the Java path, GramSet.ofFile
    }
    return found == null ? null : new GramSet(found);
  }

  /** The bit of a gram of 7-bit units in the native sets' layout, else -1. */
  private static int asciiBit(long key) {
    int len = (int) (key >>> 48);
    int a = (int) (key >>> 32) & 0xFFFF;
    int b = (int) (key >>> 16) & 0xFFFF;
    int c = (int) key & 0xFFFF;
    if (a >= 0x80 || b >= 0x80 || c >= 0x80) {
      return -1;
    }
    return len == 2 ? a << 7 | b : BIGRAM_BITS + (a << 14 | b << 7 | c);
  }

  /**
   * The distinct grams of the lines of {@code text[0..length)} and of {@code path}, those set in
   * {@code commonBits} left out, ascending; or null when a byte is not ASCII ({@code
   * prism_grams.c}). {@code commonBits} holds {@link #GRAM_WORDS} words, {@code scratch} {@link
   * #SCRATCH_WORDS}: the calling thread's bits, all zero, left all zero (other lengths: {@link
   * IllegalArgumentException}).
   */
  static native long @Nullable [] asciiGrams(byte[] text, int length, byte[] path,
      long[] commonBits, long[] scratch);

  /** Whether the native library finds the grams: loaded, and it agreed with Java at start. */
  static boolean nativeGrams() {
    return Native.ON;
  }

  /**
   * Decided once, at the first file that could use the native library (a process that only
   * searches never makes the bitmaps).
   */
  private static final class Native {
    /** The common trigrams as bits of the native sets' layout. */
    static final long[] COMMON_BITS = commonBits();
    /** Each thread's bits, all zero between calls. */
    static final ThreadLocal<long[]> SCRATCH =
        ThreadLocal.withInitial(() -> new long[SCRATCH_WORDS]);
    static final boolean ON = NativeLibrary.loaded() && nativeAgrees();
  }

  private static long[] commonBits() {
    long[] bits = new long[GRAM_WORDS];
    for (long key : COMMON.table) {
      int bit = key == 0 ? -1 : asciiBit(key);
      if (bit >= 0) {
        bits[bit >>> 6] |= 1L << bit;
      }
    }
    return bits;
  }

  /**
   * Whether the native grams of a text with every kind of line (CR LF, LF, an empty line, a line of
   * one and of two units, CRs inside a line, a last line without LF ending in CR, capitals, a tab,
   * common trigrams) and a path are those the Java path gives its lines and the path.
   */
  private static boolean nativeAgrees() {
    List<String> lines = List.of("package a.b;", "", "X", "ab", "AB", "    import static a.Ion;",
        "\tclass Foo { int BAR; }\r\rend", "x\r");
    byte[] text = ("package a.b;\r\n\r\nX\nab\r\nAB\n    import static a.Ion;\n"
        + "\tclass Foo { int BAR; }\r\rend\nx\r").getBytes(StandardCharsets.US_ASCII);
    String path = "src/Main.java";
    GramSet expected = new GramSet(0);
    lines.forEach(expected::addLine);
    expected.addLine(path);
    long[] actual;
    try {
      long[] scratch = new long[SCRATCH_WORDS];
      byte[] pathBytes = path.getBytes(StandardCharsets.UTF_8);
      actual = asciiGrams(text, text.length, pathBytes, Native.COMMON_BITS, scratch);
      // Twice: the first call must leave its bits cleared.
      if (actual != null && !Arrays.equals(actual,
          asciiGrams(text, text.length, pathBytes, Native.COMMON_BITS, scratch))) {
        actual = null;
      }
    } catch (LinkageError | NativeLibrary.NativeMemoryException e) {
      LOG.warn("{} has no n-grams; finding them in Java: {}", NativeLibrary.NAME, e.toString());
      return false;
    }
    if (actual == null || !Arrays.equals(actual, sorted(expected.packed()))) {
      LOG.error("{} finds n-grams wrongly; finding them in Java", NativeLibrary.NAME);
      return false;
    }
    return true;
  }

  private static long[] sorted(long[] keys) {
    long[] copy = keys.clone();
    Arrays.sort(copy);
    return copy;
  }

  /**
   * An empty set sized for about {@code chars} characters of text (code has about one distinct
   * gram per six characters).
   */
  private GramSet(long chars) {
    found = null;
    int capacity = 1024;
    while (capacity < (1 << 20) && capacity < chars / 3) {
      capacity <<= 1;
    }
    table = new long[capacity];
  }

  /** A set found natively: {@code found} are its packed grams, common trigrams left out. */
  private GramSet(long[] found) {
    this.found = found;
    this.table = new long[0];
  }

  /** Adds the grams of one line (lower-cased with {@link Locale#ROOT}, as the scanner does). */
  public void addLine(String line) {
    if (found != null) {
      throw new IllegalStateException("a set found natively takes no more lines");
    }
    boolean ascii = true;
    for (int i = 0, n = line.length(); i < n; i++) {
      if (line.charAt(i) >= 0x80) {
        ascii = false;
        break;
      }
    }
    // Locale.ROOT lower-cases ASCII letter by letter; other text may change length doing it.
    String text = ascii ? line : line.toLowerCase(Locale.ROOT);
    int n = text.length();
    if (n == 2) {
      add((2L << 48) | ((long) lower(text.charAt(0), ascii) << 32)
          | ((long) lower(text.charAt(1), ascii) << 16));
      return;
    }
    if (n < 3) {
      return;
    }
    long key = ((long) lower(text.charAt(0), ascii) << 16) | lower(text.charAt(1), ascii);
    for (int i = 2; i < n; i++) {
      key = ((key << 16) | lower(text.charAt(i), ascii)) & 0xFFFF_FFFF_FFFFL;
      add((3L << 48) | key);
    }
  }

  private static char lower(char c, boolean ascii) {
    return ascii && c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }

  /** The grams, common trigrams left out, in {@link #packed()} order. */
  @Override
  public List<String> grams() {
    char[] buf = new char[3];
    List<String> out = new ArrayList<>();
    for (long g : packed()) {
      out.add(new String(buf, 0, decode(g, buf)));
    }
    return out;
  }

  /** The packed grams, common trigrams left out, ascending (not to be changed). */
  public long[] sortedGrams() {
    return found != null ? found : sorted(packed());
  }

  /**
   * {@code gram} (two or three UTF-16 units, lower-cased as a file's are) packed as the set packs
   * it.
   *
   * @throws IllegalArgumentException when {@code gram} has another length
   */
  public static long pack(String gram) {
    int n = gram.length();
    if (n != 2 && n != Grams.N) {
      throw new IllegalArgumentException("not a bigram or trigram: " + n + " units");
    }
    return ((long) n << 48) | ((long) gram.charAt(0) << 32) | ((long) gram.charAt(1) << 16)
        | (n == Grams.N ? gram.charAt(2) : 0);
  }

  private boolean contains(long key) {
    int mask = table.length - 1;
    int slot = mix(key) & mask;
    while (true) {
      long k = table[slot];
      if (k == key) {
        return true;
      }
      if (k == 0) {
        return false;
      }
      slot = (slot + 1) & mask;
    }
  }

  private void add(long key) {
    int mask = table.length - 1;
    int slot = mix(key) & mask;
    while (true) {
      long k = table[slot];
      if (k == 0) {
        table[slot] = key;
        if (++size * 2 > table.length) {
          grow();
        }
        return;
      }
      if (k == key) {
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  private static int mix(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  private void grow() {
    long[] old = table;
    table = new long[old.length * 2];
    int mask = table.length - 1;
    for (long k : old) {
      if (k != 0) {
        int slot = mix(k) & mask;
        while (table[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        table[slot] = k;
      }
    }
  }

  /**
   * The packed grams, common trigrams left out (not to be changed): ascending for a set found
   * natively, else in table order, deterministic for a given file (the same grams added in the
   * same order land in the same slots).
   */
  long[] packed() {
    if (found != null) {
      return found;
    }
    long[] out = new long[size];
    int j = 0;
    for (long k : table) {
      if (k != 0 && !COMMON.contains(k)) {
        out[j++] = k;
      }
    }
    return Arrays.copyOf(out, j);
  }

  /** Writes the gram packed in {@code key} into {@code dest}; returns its length. */
  static int decode(long key, char[] dest) {
    int len = (int) (key >>> 48);
    dest[0] = (char) (key >>> 32);
    dest[1] = (char) (key >>> 16);
    dest[2] = (char) key;
    return len;
  }
}
