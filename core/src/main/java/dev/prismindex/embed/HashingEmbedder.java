package dev.prismindex.embed;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A dependency-free {@link Embedder}: feature hashing of code-aware tokens into a fixed number of
 * dimensions. <b>It measures lexical similarity in vector form, not meaning</b>: two texts are close
 * when they share identifiers, identifier parts and character trigrams, whatever those words mean;
 * synonyms and paraphrases are not recognised. It is the default of the in-memory index so that
 * {@code semantic} works without a model, and a baseline for real models to beat.
 *
 * <h2>Features</h2>
 *
 * <p>A text is cut into identifiers: maximal runs of letters, digits, {@code _} and {@code $}. Each
 * identifier is split into parts at {@code _} and {@code $}, at lower-to-upper case changes
 * ({@code parseJson} → parse, json), before the last capital of an acronym that a lower-case letter
 * follows ({@code HTTPServer} → http, server), and between letters and digits ({@code utf8Decoder}
 * → utf, 8, decoder). Parts are lower-cased (simple per-code-point mapping). Features, with weights:
 *
 * <ul>
 *   <li>each part of two or more characters, and each run of digits (weight 1);
 *   <li>the whole lower-cased identifier when it has more than one part (weight 1);
 *   <li>the character trigrams of each part of three or more characters, padded with {@code ^} and
 *       {@code $} (weight {@value #TRIGRAM_WEIGHT}), which make {@code parser} close to
 *       {@code parse} and {@code 4242} close to {@code 42421}.
 * </ul>
 *
 * <p>A feature seen {@code n} times contributes {@code weight * (1 + ln n)} to one dimension chosen by
 * a 64-bit hash of the feature (FNV-1a, then a murmur finaliser), with a sign from another bit of the
 * same hash so that collisions cancel out on average. The vector is then L2-normalised; a text
 * without any feature gives the zero vector (which matches nothing).
 *
 * <p>Deterministic across runs, platforms and JVMs; thread-safe; cheap (a few microseconds per
 * kilobyte). The {@link #id()} {@code hashing-v1-<dimension>} changes whenever the features or the
 * hashing change.
 */
public final class HashingEmbedder extends AbstractEmbedder {

  /** The dimension of {@link #HashingEmbedder()}. */
  public static final int DEFAULT_DIMENSION = 256;
  /** The weight of a character-trigram feature; parts and identifiers weigh 1. */
  public static final double TRIGRAM_WEIGHT = 0.35;

  private static final int TYPE_WORD = 0;
  private static final int TYPE_PART = 1;
  private static final int TYPE_TRIGRAM = 2;

  /** An embedder of {@value #DEFAULT_DIMENSION} dimensions. */
  public HashingEmbedder() {
    this(DEFAULT_DIMENSION);
  }

  /**
   * An embedder of {@code dimension} dimensions.
   *
   * @throws IllegalArgumentException unless {@code 16 <= dimension <= 4096}
   */
  public HashingEmbedder(int dimension) {
    // Static: hashing a text's features costs microseconds.
    super("hashing-v1-" + dimension, checked(dimension), Kind.STATIC);
  }

  private static int checked(int dimension) {
    if (dimension < 16 || dimension > 4096) {
      throw new IllegalArgumentException("dimension must be between 16 and 4096");
    }
    return dimension;
  }

  /** Embeds each text; never fails. */
  @Override
  public List<float[]> embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    List<float[]> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      out.add(embedOne(Objects.requireNonNull(text, "text")));
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    return embedOne(Objects.requireNonNull(query, "query"));
  }

  private float[] embedOne(String text) {
    int dimension = dimension();
    int n = text.length();
    Features features = new Features(Math.max(256, Integer.highestOneBit(Math.min(n, 1 << 16)) * 2));
    char[] part = new char[64];
    int i = 0;
    while (i < n) {
      int cp = text.codePointAt(i);
      if (isIdentifierPart(cp)) {
        int start = i;
        while (i < n && isIdentifierPart(text.codePointAt(i))) {
          i += Character.charCount(text.codePointAt(i));
        }
        if (part.length < i - start + 2) {
          part = new char[(i - start) * 2 + 2];
        }
        identifier(text, start, i, features, part);
      } else {
        i += Character.charCount(cp);
      }
    }
    double[] sums = new double[dimension];
    features.forEach((key, count) -> {
      int type = (int) (key & 3);
      double weight = (type == TYPE_TRIGRAM ? TRIGRAM_WEIGHT : 1.0) * (1 + Math.log(count));
      int bucket = (int) Long.remainderUnsigned(key >>> 2, dimension);
      sums[bucket] += key < 0 ? -weight : weight;
    });
    double norm = 0;
    for (double x : sums) {
      norm += x * x;
    }
    float[] vector = new float[dimension];
    if (norm > 0) {
      double scale = 1 / Math.sqrt(norm);
      for (int d = 0; d < dimension; d++) {
        vector[d] = (float) (sums[d] * scale);
      }
    }
    return vector;
  }

  private static boolean isIdentifierPart(int cp) {
    if (cp < 0x80) {
      return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9')
          || cp == '_' || cp == '$';
    }
    return Character.isLetterOrDigit(cp);
  }

  private static boolean isDigit(int cp) {
    return cp < 0x80 ? cp >= '0' && cp <= '9' : Character.isDigit(cp);
  }

  private static boolean isUpper(int cp) {
    return cp < 0x80 ? cp >= 'A' && cp <= 'Z' : Character.isUpperCase(cp);
  }

  private static boolean isLower(int cp) {
    return cp < 0x80 ? cp >= 'a' && cp <= 'z' : Character.isLowerCase(cp);
  }

  private static int toLower(int cp) {
    if (cp < 0x80) {
      return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
    }
    return Character.toLowerCase(cp);
  }

  /** Emits the features of the identifier {@code text[start, end)}. */
  private static void identifier(String text, int start, int end, Features features,
      char[] part) {
    int parts = 0;
    long wholeHash = FNV_OFFSET;
    int partLength = 0;
    boolean partDigits = false;
    int previous = -1;
    int i = start;
    while (i <= end) {
      int cp = i < end ? text.codePointAt(i) : -1;
      int width = cp < 0 ? 1 : Character.charCount(cp);
      boolean separator = cp == '_' || cp == '$';
      boolean boundary = cp < 0 || separator;
      if (!boundary && partLength > 0 && previous >= 0) {
        boolean digit = isDigit(cp);
        if (digit != partDigits) {
          boundary = true;
        } else if (isUpper(cp) && isLower(previous)) {
          boundary = true;
        } else if (isUpper(cp) && isUpper(previous) && i + width < end
            && isLower(text.codePointAt(i + width))) {
          boundary = true;
        }
      }
      if (boundary && partLength > 0) {
        if (emitPart(part, partLength, partDigits, features)) {
          parts++;
        }
        partLength = 0;
      }
      if (cp >= 0 && !separator) {
        int lower = toLower(cp);
        if (partLength == 0) {
          partDigits = isDigit(cp);
        }
        partLength += Character.toChars(lower, part, partLength);
        wholeHash = fnv(wholeHash, lower);
      }
      previous = cp;
      i += width;
    }
    if (parts > 1) {
      features.add(finish(wholeHash, TYPE_WORD));
    }
  }

  private static boolean emitPart(char[] part, int length, boolean digits, Features features) {
    if (length < 2 && !digits) {
      return false;
    }
    long hash = FNV_OFFSET;
    for (int k = 0; k < length; k++) {
      hash = fnv(hash, part[k]);
    }
    features.add(finish(hash, TYPE_PART));
    if (length >= 3) {
      for (int k = -1; k + 2 <= length; k++) {
        long gram = FNV_OFFSET;
        gram = fnv(gram, k < 0 ? '^' : part[k]);
        gram = fnv(gram, part[k + 1]);
        gram = fnv(gram, k + 2 < length ? part[k + 2] : '$');
        features.add(finish(gram, TYPE_TRIGRAM));
      }
    }
    return true;
  }

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private static long fnv(long hash, int unit) {
    hash ^= unit & 0xFF;
    hash *= FNV_PRIME;
    hash ^= (unit >>> 8) & 0xFF;
    hash *= FNV_PRIME;
    return hash;
  }

  /** Mixes a feature hash (murmur3's finaliser) and stores its type in the two low bits. */
  private static long finish(long hash, int type) {
    long h = hash ^ (type * 0x9E3779B97F4A7C15L);
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (h & ~3L) | type;
  }

  /** Counts feature keys without boxing (open addressing, keys never 0 after mixing in practice). */
  private static final class Features {
    private long[] keys;
    private int[] counts;
    private boolean[] used;
    private int size;

    Features(int capacity) {
      keys = new long[capacity];
      counts = new int[capacity];
      used = new boolean[capacity];
    }

    void add(long key) {
      int mask = keys.length - 1;
      int at = (int) (key ^ (key >>> 29)) & mask;
      while (used[at]) {
        if (keys[at] == key) {
          counts[at]++;
          return;
        }
        at = (at + 1) & mask;
      }
      used[at] = true;
      keys[at] = key;
      counts[at] = 1;
      if (++size * 2 > keys.length) {
        grow();
      }
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldCounts = counts;
      boolean[] oldUsed = used;
      keys = new long[oldKeys.length * 2];
      counts = new int[keys.length];
      used = new boolean[keys.length];
      int mask = keys.length - 1;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldUsed[i]) {
          int at = (int) (oldKeys[i] ^ (oldKeys[i] >>> 29)) & mask;
          while (used[at]) {
            at = (at + 1) & mask;
          }
          used[at] = true;
          keys[at] = oldKeys[i];
          counts[at] = oldCounts[i];
        }
      }
    }

    interface Visitor {
      void visit(long key, int count);
    }

    void forEach(Visitor visitor) {
      for (int i = 0; i < keys.length; i++) {
        if (used[i]) {
          visitor.visit(keys[i], counts[i]);
        }
      }
    }
  }

  @Override
  public String toString() {
    return id();
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof HashingEmbedder that && that.dimension() == dimension();
  }

  @Override
  public int hashCode() {
    return Integer.hashCode(dimension());
  }
}
