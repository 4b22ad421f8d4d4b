package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training list of the code model holds no corpus of the quality benchmark, and the check that
 * says so refuses a list that does (by name, upstream, alias, URL and checksum).
 */
class ContaminationTest {

  /** The committed lists, from the benchmarks module's directory (Maven's working directory). */
  private static final Path TRAINING = Path.of("../scripts/corpora/training.txt");
  private static final Path QUALITY = Path.of("../scripts/corpora/quality.txt");

  @TempDir Path dir;

  @Test
  void committedTrainingListHoldsNoQualityCorpus() throws IOException {
    List<TreeList> training = TreeList.readTraining(TRAINING);
    assertThat(training).hasSizeGreaterThanOrEqualTo(100);
    assertThat(Contamination.check(training, TreeList.readQuality(QUALITY))).isEmpty();
  }

  @Test
  void committedTrainingListCoversTheSevenLanguages() throws IOException {
    assertThat(TreeList.readTraining(TRAINING).stream().map(t -> Language.of(t.language()))
        .distinct()).containsExactlyInAnyOrder(Language.values());
  }

  @Test
  void refusesTheCorpusItself() throws IOException {
    // toolz's own line, as the quality list pins it (same URL and sha256, another name).
    List<Contamination.Finding> found = check(
        "pytoolz|python|0.12.0|http://deb.debian.org/debian/pool/main/t/toolz/toolz_0.12.0.orig"
            + ".tar.gz|04d555d7ccb3c84301eaad310dd27ba511ae3dcf331ada5828d7cc03942f2c2e"
            + "|toolz-0.12.0|example.org/other");
    assertThat(found).extracting(Contamination.Finding::corpus).contains("python");
    assertThat(found.get(0).reason()).contains("sha256");
  }

  @Test
  void refusesByUpstreamNameAndAlias() throws IOException {
    String sha = "0".repeat(64);
    assertThat(check("renamed|go|1|http://x/a.tar.gz|" + sha + "|r|github.com/spf13/cobra"))
        .extracting(Contamination.Finding::corpus).containsExactly("go");
    assertThat(check("rust-tokio-util|rust|1|http://x/b.tar.gz|" + sha + "|r|example.org/u"))
        .extracting(Contamination.Finding::corpus).containsExactly("rust");
    assertThat(check("python-cytoolz|python|1|http://x/c.tar.gz|" + sha + "|r|example.org/c"))
        .extracting(Contamination.Finding::corpus).containsExactly("python");
    assertThat(check("golang-github-gorilla-mux|go|1|http://x/d.tar.gz|" + sha + "|r|e.org/d"))
        .extracting(Contamination.Finding::corpus).containsExactly("mux");
    assertThat(check("openjdk-17|java|1|http://x/e.tar.gz|" + sha + "|r|e.org/e"))
        .extracting(Contamination.Finding::corpus).containsExactly("jdk");
  }

  @Test
  void keepsNeighboursOfACorpus() throws IOException {
    String sha = "0".repeat(64);
    // Same organisation, another project; a name that only contains a corpus's letters.
    assertThat(check("rust-tracing|rust|1|http://x/a.tar.gz|" + sha + "|r|github.com/tokio-rs/tracing"))
        .isEmpty();
    assertThat(check("golang-github-spf13-pflag|go|1|http://x/b.tar.gz|" + sha + "|r|"
        + "github.com/spf13/pflag")).isEmpty();
    assertThat(check("tmux-lib|go|1|http://x/c.tar.gz|" + sha + "|r|e.org/tmux")).isEmpty();
  }

  @Test
  void theMinerRefusesAContaminatedListBeforeMining() throws Exception {
    List<String> lines = new ArrayList<>(Files.readAllLines(TRAINING));
    lines.add("sinclair-typebox|typescript|0.24.44|http://deb.debian.org/x.tar.gz|" + "1".repeat(64)
        + "|typebox|github.com/sinclairzx81/typebox");
    Path list = dir.resolve("training.txt");
    Files.write(list, lines, StandardCharsets.UTF_8);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        TrainingPairs.class.getName(), "--training", list.toString(), "--quality",
        QUALITY.toString(), "--trees", dir.resolve("trees").toString(), "--out",
        dir.resolve("pairs.jsonl.gz").toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isEqualTo(3);
    assertThat(out).contains("refused: sinclair-typebox is the quality corpus typescript");
    assertThat(dir.resolve("pairs.jsonl.gz")).doesNotExist();
  }

  private List<Contamination.Finding> check(String trainingLine) throws IOException {
    Path list = dir.resolve("one.txt");
    Files.writeString(list, "# one tree\n" + trainingLine + "\n", StandardCharsets.UTF_8);
    return Contamination.check(TreeList.readTraining(list), TreeList.readQuality(QUALITY));
  }
}
