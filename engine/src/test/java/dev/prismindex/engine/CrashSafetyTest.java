package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.literalSearch;
import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.IndexInternals.vectorStats;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.index.IndexState;
import dev.prismindex.repository.AbortSignal;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child indexing process with SIGKILL ({@code destroyForcibly}) at random moments (lexical
 * and vector commits alike) and checks every time that the index opens, is consistent with its last
 * commit (manifest, chunk, coverage and vector counts) and answers queries; finally a run in this
 * process completes the work, embeddings included. Every other child embeds as a static model does
 * (vectors in the lexical commit), the others after it. The seed is printed in assertion
 * messages.
 */
class CrashSafetyTest {

  static final int FILES = 800;
  private static final int KILLS = 10;

  @TempDir Path root;
  @TempDir Path logs;

  static Path fileName(int i) {
    return Path.of("pkg" + (i % 12), "Source" + i + ".java");
  }

  static void writeSource(Path root, Path rel, long variant) throws IOException {
    Path file = root.resolve(rel);
    Files.createDirectories(file.getParent());
    String cls = rel.getFileName().toString().replace(".java", "");
    StringBuilder sb = new StringBuilder("package ").append(rel.getParent()).append(";\n\n");
    sb.append("public class ").append(cls).append(" {\n");
    for (int m = 0; m < 6; m++) {
      sb.append("  /** Computes value ").append(m).append(" of variant ").append(variant)
          .append(". */\n");
      sb.append("  public long compute").append(m).append("Value(long input) {\n");
      sb.append("    long acc = input * ").append(m + 1).append(";\n");
      sb.append("    for (int i = 0; i < 10; i++) { acc += i ^ ").append(variant & 0xff)
          .append("; }\n");
      sb.append("    return acc; // crashNeedle\n  }\n\n");
    }
    sb.append("}\n");
    Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
  }

  @Test
  // A guard against a hang, not a speed limit: 20-32 s at low load, over 120 s at load 20+ (ten
  // children, each a JVM that indexes before it is killed).
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void killedIndexersLeaveTheLastCommitIntact() throws Exception {
    long seed = Long.getLong("prism.seed", System.nanoTime());
    Random random = new Random(seed);
    for (int i = 0; i < FILES; i++) {
      writeSource(root, fileName(i), i);
    }
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("java.class.path");
    int childrenThatCommitted = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      String msg = "seed " + seed + " kill " + kill;
      Process child = new ProcessBuilder(javaBin, "-Xmx256m", "-XX:TieredStopAtLevel=1",
          "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp", classpath,
          CrashChild.class.getName(), root.toString(), Long.toString(random.nextLong()))
          .redirectError(logs.resolve("child-" + kill + ".err").toFile()).start();
      List<String> committed = new CopyOnWriteArrayList<>();
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = r.readLine()) != null; ) {
            if (line.startsWith("COMMITTED ")) {
              committed.add(line.substring(10));
            }
          }
        } catch (IOException ignored) {
          // the child died
        }
      });
      reader.start();
      if (kill % 2 == 1) {
        // Let this child commit once, then kill it somewhere in a later run.
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (committed.isEmpty() && child.isAlive() && System.nanoTime() < until) {
          Thread.sleep(20);
        }
        Thread.sleep(random.nextInt(1500));
      } else {
        Thread.sleep(300 + random.nextInt(3000));
      }
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).as(msg).isTrue();
      reader.join(10_000);
      if (!committed.isEmpty()) {
        childrenThatCommitted++;
      }
      try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).build())) {
        EngineStatus status = index.engineStatus();
        IndexState state = index.status().state();
        assertThat(state).as(msg).isIn(IndexState.EMPTY, IndexState.READY);
        if (!committed.isEmpty()) {
          assertThat(status.hasCommit()).as(msg).isTrue();
        }
        if (status.hasCommit()) {
          // The commit's metadata and its documents agree: no half-written run is visible.
          assertThat(manifest(index)).as(msg).hasSize((int) status.files());
          long chunks = manifest(index).values().stream().mapToLong(e -> e.chunks()).sum();
          assertThat(chunks).as(msg).isEqualTo(status.chunks());
          // The coverage and vector counts of the commit describe its documents exactly.
          assertThat(vectorStats(index).chunksEmbedded()).as(msg)
              .isEqualTo(status.chunksEmbedded());
          assertThat(vectorStats(index).vectors()).as(msg).isEqualTo(status.vectors());
          assertThat(vectorStats(index).chunks()).as(msg).isEqualTo(status.chunks());
          assertThat(status.sourceRevision()).as(msg).startsWith("manifest:");
          if (status.files() > 0) {
            assertThat(index.search("compute1Value", SearchOpts.lexical(5))).as(msg)
                .isNotEmpty();
            assertThat(literalSearch(index, "crashNeedle", false, null, 5, true,
                AbortSignal.create()).matches()).as(msg).isNotEmpty();
          }
        }
      }
    }
    String err0 = Files.readString(logs.resolve("child-0.err"));
    assertThat(childrenThatCommitted).as("seed " + seed + ": some child committed; " + err0)
        .isPositive();
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      IndexRunStats verify = index.refresh(RefreshOptions.VERIFY);
      assertThat(verify.committed()).isFalse();
      assertThat(verify.added() + verify.changed() + verify.deleted()).isZero();
      long onDisk;
      try (var s = Files.walk(root)) {
        onDisk = s.filter(Files::isRegularFile)
            .filter(p -> !p.startsWith(root.resolve(".prism-index"))).count();
      }
      assertThat(index.engineStatus().files()).isEqualTo(onDisk);
      assertThat(index.status().state()).isEqualTo(IndexState.READY);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
      assertThat(index.search("compute value", SearchOpts.hybrid(3))).isNotEmpty();
    }
    assertThat(new File(root.toFile(), ".prism-index/.gitignore")).exists();
    assertThat(new ArrayList<>(List.of(1))).hasSize(1);
  }
}
