package dev.prismindex.benchmarks;

import dev.prismindex.index.InMemoryIndex.ContentSource;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * A realistic fixture: {@code files} TypeScript-like source files of 1 to 4 KB, generated
 * deterministically from a seed and the file's number (imports, functions, constants, conditions,
 * comments over a vocabulary of 1 500 made-up words in camelCase identifiers). Paths look like
 * {@code src/pkg17/mod3/parseTarvelList17345.ts}. Content is generated when the index reads it.
 */
public final class RealisticFixture implements ContentSource {

  /** The fixture size of the realistic benchmark. */
  public static final int FILES = 100_000;

  private static final long SEED = 0x5eed_c0deL;
  private static final String[] WORDS = vocabulary(1_500);
  private static final String[] TYPES = {"number", "string", "boolean", "Result", "Options",
      "Map<string, number>", "Promise<void>", "ReadonlyArray<string>"};

  private final int files;

  public RealisticFixture(int files) {
    this.files = files;
  }

  public int files() {
    return files;
  }

  /** The path of file {@code i}. */
  public static String path(int i) {
    Random random = new Random(SEED ^ (i * 0x9E3779B97F4A7C15L));
    return "src/pkg" + (i / 1_000) + "/mod" + (i / 100 % 10) + "/" + identifier(random, 2) + i
        + ".ts";
  }

  @Override
  public byte @Nullable [] read(String path, long maxBytes) {
    int end = path.length() - 3;
    if (!path.endsWith(".ts")) {
      return null;
    }
    int start = end;
    while (start > 0 && Character.isDigit(path.charAt(start - 1))) {
      start--;
    }
    if (start == end) {
      return null;
    }
    int i = Integer.parseInt(path.substring(start, end));
    if (i >= files || !path(i).equals(path)) {
      return null;
    }
    return content(i).getBytes(StandardCharsets.UTF_8);
  }

  /** The content of file {@code i}: 1 024 to 4 096 bytes of code-like lines. */
  public static String content(int i) {
    Random random = new Random(SEED * 31 + i);
    int target = 1_024 + random.nextInt(3_073);
    StringBuilder out = new StringBuilder(target + 200);
    StringBuilder line = new StringBuilder(120);
    int depth = 0;
    while (true) {
      line.setLength(0);
      int kind = random.nextInt(12);
      String indent = "  ".repeat(depth);
      if (out.length() == 0 || kind == 0) {
        line.append("import { ").append(type(random)).append(" } from './")
            .append(identifier(random, 1)).append("';");
      } else if (kind == 1 && depth < 2) {
        line.append(indent).append("export function ").append(identifier(random, 2)).append('(')
            .append(identifier(random, 1)).append(": ").append(TYPES[random.nextInt(TYPES.length)])
            .append(", ").append(identifier(random, 1)).append(": number): ")
            .append(TYPES[random.nextInt(TYPES.length)]).append(" {");
        depth++;
      } else if (kind == 2 && depth < 3) {
        line.append(indent).append("if (").append(identifier(random, 2)).append(" > ")
            .append(random.nextInt(1_000)).append(") {");
        depth++;
      } else if (kind == 3 && depth > 0) {
        depth--;
        line.append("  ".repeat(depth)).append('}');
      } else if (kind == 4) {
        line.append(indent).append("// ");
        for (int w = 2 + random.nextInt(8); w > 0; w--) {
          line.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
      } else if (kind == 5) {
        line.append(indent).append("return ").append(identifier(random, 2)).append(';');
      } else {
        line.append(indent).append("const ").append(identifier(random, 2)).append(" = ")
            .append(identifier(random, 1)).append('.').append(identifier(random, 2)).append('(')
            .append(identifier(random, 1)).append(", ").append(random.nextInt(10_000))
            .append(");");
      }
      line.append('\n');
      if (out.length() + line.length() > 4_096 || out.length() >= target) {
        break;
      }
      out.append(line);
    }
    return out.toString();
  }

  /**
   * {@code count} seeded queries in the proportions an agent might use: identifiers and identifier
   * parts of the vocabulary (70%), short code fragments such as {@code return } or {@code ) {}
   * (20%), and strings that occur nowhere (10%).
   */
  public static String[] queries(int count, long seed) {
    Random random = new Random(seed);
    String[] fragments = {"return ", ") {", "export function", "import {", "const ", "// ", "if (",
        ": number", "Promise<void>", "=>"};
    String[] queries = new String[count];
    for (int q = 0; q < count; q++) {
      int kind = random.nextInt(10);
      if (kind < 7) {
        queries[q] = random.nextBoolean() ? identifier(random, 1 + random.nextInt(2))
            : WORDS[random.nextInt(WORDS.length)];
      } else if (kind < 9) {
        queries[q] = fragments[random.nextInt(fragments.length)];
      } else {
        queries[q] = "zqx" + random.nextInt(1_000_000) + "vwk";
      }
    }
    return queries;
  }

  private static String type(Random random) {
    return capitalize(WORDS[random.nextInt(WORDS.length)]) + capitalize(
        WORDS[random.nextInt(WORDS.length)]);
  }

  private static String identifier(Random random, int words) {
    StringBuilder out = new StringBuilder(WORDS[random.nextInt(WORDS.length)]);
    for (int w = 1; w < words; w++) {
      out.append(capitalize(WORDS[random.nextInt(WORDS.length)]));
    }
    return out.toString();
  }

  private static String capitalize(String word) {
    return Character.toUpperCase(word.charAt(0)) + word.substring(1);
  }

  private static String[] vocabulary(int size) {
    String[] onsets = {"b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v",
        "w", "z", "st", "tr", "pl", "gr", "ch", "sh"};
    String[] vowels = {"a", "e", "i", "o", "u", "ea", "io", "ou"};
    String[] codas = {"", "n", "r", "l", "s", "t", "x", "nd", "rk", "st"};
    Random random = new Random(SEED);
    java.util.LinkedHashSet<String> words = new java.util.LinkedHashSet<>();
    while (words.size() < size) {
      StringBuilder word = new StringBuilder();
      for (int s = 1 + random.nextInt(3); s > 0; s--) {
        word.append(onsets[random.nextInt(onsets.length)]).append(vowels[random.nextInt(vowels.length)])
            .append(codas[random.nextInt(codas.length)]);
      }
      if (word.length() >= 3) {
        words.add(word.toString().toLowerCase(Locale.ROOT));
      }
    }
    return words.toArray(String[]::new);
  }
}
