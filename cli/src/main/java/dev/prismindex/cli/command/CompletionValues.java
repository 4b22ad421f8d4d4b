package dev.prismindex.cli.command;

import dev.prismindex.engine.FileFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The values the shell completion scripts offer for the options of {@link Flags} that take a
 * word from a fixed set; each list is read from the code that accepts the values, so the two agree.
 */
final class CompletionValues {
  private CompletionValues() {}

  /** The values of {@code --mode}, offered by the completion scripts. */
  static final class ModeNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      List<String> names = new ArrayList<>();
      SearchSurface.COMMAND_LINE_MODES.forEach(m -> names.add(m.wireName()));
      names.add(SearchRequests.AUTO);
      return names.iterator();
    }
  }

  /** The values of {@code --type}: the languages, offered by the completion scripts. */
  static final class TypeNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return FileFilter.knownLanguages().keySet().iterator();
    }
  }

  /** The values of {@code --backend}, offered by the completion scripts. */
  static final class BackendNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return List.of("local", "opensearch").iterator();
    }
  }

  /** The values of {@code --color}, offered by the completion scripts. */
  static final class ColourNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(GrepOptions.Colour.values()).map(GrepOptions.Colour::label).iterator();
    }
  }
}
