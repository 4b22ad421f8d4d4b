package dev.prismindex.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexProgress.Phase;
import org.junit.jupiter.api.Test;

/** The message of an MCP progress notification, from the engine's progress snapshot. */
class McpProgressTest {

  @Test
  void theMessageIsThePhaseAndTheCountersOfItsWork() {
    assertThat(McpProgress.message(new IndexProgress(Phase.WALKING, 0, 0, 0, 0, 5)))
        .isEqualTo("walking");
    assertThat(McpProgress.message(new IndexProgress(Phase.INDEXING, 40, 120, 0, 0, 90)))
        .isEqualTo("indexing: 40/120 files");
    assertThat(McpProgress.message(new IndexProgress(Phase.EMBEDDING, 120, 120, 1200, 3575, 900)))
        .isEqualTo("embedding: 1200/3575 chunks");
    // Before the count of texts to embed is known, the files still say how far the run is.
    assertThat(McpProgress.message(new IndexProgress(Phase.EMBEDDING, 120, 120, 0, 0, 800)))
        .isEqualTo("embedding: 120/120 files");
  }
}
