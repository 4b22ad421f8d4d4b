package dev.prismindex.repository;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs ripgrep ({@code rg --json}) for the equivalence tests and turns its answer into what
 * prism-index reports: repository-relative paths, 1-based lines (a line without its LF; a CR is
 * content, as it is to ripgrep), and each submatch as a span of
 * UTF-16 units of the line as prism-index decodes it (each maximal ill-formed UTF-8 subsequence one
 * unit, shown as U+FFFD), with its text. ripgrep's offsets are bytes; a non-empty match always
 * starts and ends on a character boundary, so the conversion is exact for them.
 */
public final class Ripgrep {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Ripgrep() {}

  /** One submatch: {@code [start, end)} in UTF-16 units of the decoded line, and its text. */
  public record Span(int start, int end, String text) {
    /** Whether the span is empty. */
    public boolean empty() {
      return start == end;
    }
  }

  /** One matching line and its submatches, in ripgrep's order. */
  public record Match(String path, int line, String text, List<Span> spans) {}

  /** What one run answered: its exit code (0 matches, 1 none, 2 an error), matches and stderr. */
  public record Answer(int exit, List<Match> matches, String stderr) {}

  /** The {@code rg} executable on the PATH, if there is one. */
  public static Optional<Path> executable() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      Path rg = Path.of(dir, "rg");
      if (Files.isRegularFile(rg) && Files.isExecutable(rg)) {
        return Optional.of(rg);
      }
    }
    return Optional.empty();
  }

  /** ripgrep's version line ({@code ripgrep 13.0.0}). */
  public static String version(Path rg) {
    return new String(run(rg, Path.of("."), List.of("--version")).out, StandardCharsets.UTF_8)
        .lines().findFirst().orElse("");
  }

  /**
   * The matches of {@code rg --json --no-config ARGS} run in {@code dir} (paths relative to it,
   * in ripgrep's order; pass {@code --sort path} for a stable one).
   */
  public static Answer matches(Path rg, Path dir, List<String> args) {
    List<String> all = new ArrayList<>(List.of("--json", "--no-config"));
    all.addAll(args);
    Output run = run(rg, dir, all);
    byte[] out = run.out;
    List<Match> matches = new ArrayList<>();
    try {
      for (String line : new String(out, StandardCharsets.UTF_8).split("\n")) {
        if (line.isEmpty()) {
          continue;
        }
        JsonNode o = JSON.readTree(line);
        if (!o.path("type").asText().equals("match")) {
          continue;
        }
        JsonNode d = o.path("data");
        String path = text(d.path("path")).orElseThrow();
        if (path.startsWith("./")) {
          path = path.substring(2);
        }
        byte[] lineBytes = bytes(d.path("lines"));
        int end = lineBytes.length;
        if (end > 0 && lineBytes[end - 1] == '\n') {
          end--;
        }
        byte[] content = java.util.Arrays.copyOf(lineBytes, end);
        String decoded = Utf8Decoder.decode(content, 0, content.length);
        List<Span> spans = new ArrayList<>();
        Units units = new Units(content);
        for (JsonNode s : d.path("submatches")) {
          int a = s.path("start").asInt();
          int b = s.path("end").asInt();
          spans.add(new Span(units.at(a), units.at(b), Utf8Decoder.decode(lineBytes, a, b - a)));
        }
        matches.add(new Match(path, d.path("line_number").asInt(), decoded, spans));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Answer(run.exit, matches, run.err);
  }

  /**
   * The UTF-16 length of the decoding of {@code line[0..offset)}, for ascending offsets on
   * character boundaries (decoded piece by piece from the last one, so a line's many submatches
   * cost one pass).
   */
  static final class Units {
    private final byte[] line;
    private int lastByte;
    private int lastUnit;

    Units(byte[] line) {
      this.line = line;
    }

    int at(int offset) {
      int b = Math.min(offset, line.length);
      // An empty match inside a multi-byte character (ripgrep steps a byte after an empty match)
      // maps to the character's start.
      while (b > lastByte && b < line.length && (line[b] & 0xC0) == 0x80) {
        b--;
      }
      if (b < lastByte) {
        lastByte = 0;
        lastUnit = 0;
      }
      lastUnit += Utf8Decoder.decode(line, lastByte, b - lastByte).length();
      lastByte = b;
      return lastUnit;
    }
  }

  private static Optional<String> text(JsonNode node) {
    if (node.has("text")) {
      return Optional.of(node.path("text").asText());
    }
    if (node.has("bytes")) {
      byte[] b = Base64.getDecoder().decode(node.path("bytes").asText());
      return Optional.of(Utf8Decoder.decode(b, 0, b.length));
    }
    return Optional.empty();
  }

  private static byte[] bytes(JsonNode node) {
    if (node.has("bytes")) {
      return Base64.getDecoder().decode(node.path("bytes").asText());
    }
    return node.path("text").asText().getBytes(StandardCharsets.UTF_8);
  }

  private record Output(int exit, byte[] out, String err) {}

  private static Output run(Path rg, Path dir, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(rg.toString());
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().remove("RIPGREP_CONFIG_PATH");
    try {
      Path err = Files.createTempFile("rg-stderr", ".txt");
      pb.redirectError(err.toFile());
      Process p = pb.start();
      p.getOutputStream().close();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (InputStream in = p.getInputStream()) {
        in.transferTo(out);
      }
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("rg did not finish: " + command);
      }
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      Files.delete(err);
      return new Output(p.exitValue(), out.toByteArray(), stderr);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
