package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.spi.StoreReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where {@link HitLocator} reads the file of a ranked chunk and checks it against the index: one
 * repository's working tree and its commit's manifest, or, in a workspace, the repository each
 * chunk came from. Lives for one search: a file is read once per search.
 */
public interface FileSource {

  /**
   * The current content of {@code path}, the file of the chunk {@code chunk} (an id of the
   * search's reader), checked against its manifest entry.
   */
  FileView view(int chunk, String path) throws IOException;

  /** The workspace repository the chunk belongs to (its hits carry it), null for one repository. */
  default @Nullable String repo(int chunk) {
    return null;
  }

  /** The files of one repository: its {@code root}, and the manifest of {@code index}. */
  static FileSource of(Path root, StoreReader index, long maxFileBytes) {
    Map<String, FileView> views = new HashMap<>();
    return (chunk, path) -> {
      FileView view = views.get(path);
      if (view == null) {
        view = FileView.load(root, path, index.file(path), maxFileBytes);
        views.put(path, view);
      }
      return view;
    };
  }
}
