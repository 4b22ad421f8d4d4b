package dev.prismindex.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The generated Java corpus of the engine's benchmarks: {@code files} classes in 50 packages, each
 * with 3-12 methods of 2-16 lines built from a small vocabulary (seed 42); 5 000 files are 23.0 MB,
 * 37 398 chunks. Also the corpus of the engine's JMH-free harnesses ({@code EngineTiming}):
 * {@code java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.EngineCorpus DIR FILES
 * [MIN_METHODS]} writes it.
 */
final class EngineCorpus {

  private static final String[] NOUNS = {"duration", "config", "request", "response", "cache",
      "index", "token", "stream", "buffer", "session", "user", "order", "payment", "metric",
      "widget", "parser", "schema", "record", "event", "queue"};
  private static final String[] VERBS = {"parse", "load", "store", "compute", "validate", "merge",
      "render", "flush", "resolve", "encode", "decode", "open", "close", "update", "find"};

  /** Queries of the latency benchmarks: natural language and identifiers. */
  static final String[] QUERIES = {"parse duration config", "validate the session token",
      "render widget", "cache", "flush buffer stream", "where are payments encoded",
      "resolve schema record", "decodeBufferQueue", "how is the user order updated",
      "computeMetricEvent", "serialize a date to json", "read the next token"};

  private EngineCorpus() {}

  /** Writes the corpus: {@code DIR FILES [MIN_METHODS]}; prints the bytes written. */
  public static void main(String[] args) {
    if (args.length < 2 || args.length > 3) {
      System.err.println("usage: EngineCorpus DIR FILES [MIN_METHODS]");
      System.exit(2);
    }
    int files = Integer.parseInt(args[1]);
    int minMethods = args.length == 3 ? Integer.parseInt(args[2]) : 3;
    if (files < 1 || minMethods < 1) {
      System.err.println("FILES and MIN_METHODS must be positive");
      System.exit(2);
    }
    long bytes = generate(Path.of(args[0]), files, minMethods);
    System.out.println("wrote " + files + " files, " + bytes + " bytes, into " + args[0]);
  }

  /** Writes the corpus into {@code dir} (created); returns the total bytes written. */
  static long generate(Path dir, int files) {
    return generate(dir, files, 3);
  }

  /**
   * Writes a corpus whose classes have {@code minMethods} to {@code minMethods + 9} methods (3 is the
   * standard corpus; 5 makes files about 27 % larger); returns the total bytes written.
   */
  static long generate(Path dir, int files, int minMethods) {
    try {
      Random r = new Random(42);
      long bytes = 0;
      for (int i = 0; i < files; i++) {
        String pkg = "pkg" + (i % 50);
        String cls = cap(NOUNS[r.nextInt(NOUNS.length)]) + cap(NOUNS[r.nextInt(NOUNS.length)]) + i;
        StringBuilder sb = new StringBuilder("package ").append(pkg)
            .append(";\n\nimport java.util.*;\n\n");
        sb.append("/** Handles ").append(cls).append(". */\npublic class ").append(cls)
            .append(" {\n");
        int methods = minMethods + r.nextInt(10);
        for (int m = 0; m < methods; m++) {
          String name = VERBS[r.nextInt(VERBS.length)] + cap(NOUNS[r.nextInt(NOUNS.length)])
              + cap(NOUNS[r.nextInt(NOUNS.length)]);
          sb.append("  /** ").append(name).append(" for ").append(cls).append(". */\n");
          sb.append("  public int ").append(name).append(m)
              .append("(String input, int count) {\n");
          int body = 2 + r.nextInt(15);
          for (int b = 0; b < body; b++) {
            sb.append("    int v").append(b).append(" = input.length() * ").append(r.nextInt(100))
                .append(" + count; // ").append(NOUNS[r.nextInt(NOUNS.length)]).append('\n');
          }
          sb.append("    return count;\n  }\n\n");
        }
        sb.append("}\n");
        Path f = dir.resolve(pkg).resolve(cls + ".java");
        Files.createDirectories(f.getParent());
        byte[] data = sb.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(f, data);
        bytes += data.length;
      }
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String cap(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** Bytes of the regular files below {@code dir}. */
  static long size(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      long total = 0;
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        total += Files.size(p);
      }
      return total;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
