package dev.prismindex.repository;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The plain file-system walk: {@link BreadthFirstWalk} over directory listings. A directory stream
 * never follows links, and entries are stat-ed without following them.
 */
final class NativeWalk implements RepoWalk {

  static final NativeWalk INSTANCE = new NativeWalk();

  private NativeWalk() {}

  @Override
  public @Nullable TruncationReason walk(Request request, Visitor visitor) {
    return BreadthFirstWalk.run(request, NativeWalk::list, visitor);
  }

  private static List<String> list(Path directory, String relative) throws IOException {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path child : stream) {
        names.add(child.getFileName().toString());
      }
    }
    return names;
  }
}
