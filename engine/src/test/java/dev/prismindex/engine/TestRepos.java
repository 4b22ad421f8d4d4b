package dev.prismindex.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Helpers to build fixture repositories. */
final class TestRepos {
  private TestRepos() {}

  static Path write(Path root, String rel, String content) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
    return p;
  }

  static Path writeBytes(Path root, String rel, byte[] content) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.write(p, content);
    return p;
  }

  static HybridIndex open(Path root) throws IOException {
    return HybridIndex.open(HybridIndexOptions.builder(root).build());
  }

  /** Opens with this embedder; vectors are committed after every batch. */
  static HybridIndex open(Path root, dev.prismindex.embed.Embedder embedder) throws IOException {
    return HybridIndex.open(HybridIndexOptions.builder(root).embedder(embedder)
        .embeddingCommitInterval(java.time.Duration.ZERO).build());
  }

  /** A Python function of about 200 characters (a chunk of its own). */
  static String pyFunction(String name, String word) {
    return "def " + name + "(value, factor):\n"
        + "    \"\"\"Computes the " + word + " of a value for the " + name + " report.\"\"\"\n"
        + "    scaled = value * factor + len(\"" + word + "\")\n"
        + "    total = scaled - factor // 2\n"
        + "    return total  # " + word + "\n\n";
  }

  /** Runs a git command in {@code dir}; returns stdout. */
  static String git(Path dir, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add("git");
    cmd.add("-c");
    cmd.add("user.email=t@example.com");
    cmd.add("-c");
    cmd.add("user.name=t");
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
    pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("git " + String.join(" ", args) + " failed: "
          + new String(out, StandardCharsets.UTF_8));
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  static boolean gitAvailable() {
    try {
      Process p = new ProcessBuilder("git", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
