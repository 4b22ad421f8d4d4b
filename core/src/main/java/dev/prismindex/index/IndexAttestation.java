package dev.prismindex.index;

import dev.prismindex.repository.SearchMode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the index attested when it answered a search, attached to every index result.
 *
 * @param mode the index mode that answered
 * @param state the state the backend reported (always {@link IndexState#READY}: no other state is
 *     served)
 * @param sourceRevision the revision the backend attested, if any (non-empty, at most 4 096 UTF-8
 *     bytes; a longer one is dropped)
 * @param updatedAt when the backend says it was last updated (epoch milliseconds), if attested
 */
public record IndexAttestation(
    SearchMode mode, IndexState state, @Nullable String sourceRevision, @Nullable Long updatedAt) {
  public IndexAttestation {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(state, "state");
  }
}
