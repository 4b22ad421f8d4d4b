package dev.prismindex.engine.internal.chunk;

import dev.prismindex.engine.internal.NativeLibrary;
import dev.prismindex.engine.spi.Chunk;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits a file into chunks: tree-sitter symbol chunks (functions, methods, classes, types) for
 * Java, Python, TypeScript, TSX, JavaScript, Go and Rust; bounded line windows for every other
 * language, for text tree-sitter cannot take (lone surrogates), for parse failures, and when the
 * native library cannot be loaded (logged once; indexing goes on). A type's members are chunks of
 * their own ({@link ChunkBuilder}); the comments and attributes right above a definition belong to
 * it ({@link DocComments}); the body of a Rust macro invocation at item level
 * ({@code cfg_rt! { ... }}, {@code pin_project! { ... }}, in a file or an impl, trait or module)
 * is parsed again as Rust source and its definitions are items of the file.
 *
 * <p>Where this project's native library is loaded ({@link NativeDefinitions}: linux-x86_64),
 * one native call per file parses it and finds its definitions with optimised code; elsewhere the
 * tree-sitter binding does ({@link BindingDefinitions}: same definitions, slower). Both report
 * {@link ScanItem}s, which this class names and nests.
 *
 * <p>Thread-safe. {@link #close()} frees the binding's pooled parsers.
 */
public final class Chunker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Chunker.class);
  private static final int MAX_DEPTH = 256;

  /** The node types of definitions, in any of the grammars. */
  static final Set<String> DEFINITIONS = Set.of(
      // Java
      "class_declaration", "interface_declaration", "record_declaration", "enum_declaration",
      "annotation_type_declaration", "method_declaration", "constructor_declaration",
      // Python
      "class_definition", "function_definition", "decorated_definition",
      // TypeScript / JavaScript
      "method_definition", "function_declaration", "generator_function_declaration",
      "abstract_class_declaration", "type_alias_declaration", "lexical_declaration",
      "variable_declaration",
      // Go
      "type_declaration",
      // Rust
      "function_item", "impl_item", "struct_item", "enum_item", "trait_item", "mod_item",
      "union_item", "macro_definition");

  /** Definition types whose members become chunks of their own (see {@link ChunkBuilder}). */
  static final Set<String> CONTAINERS = Set.of(
      "class_declaration", "interface_declaration", "record_declaration", "enum_declaration",
      "annotation_type_declaration", "class_definition", "abstract_class_declaration",
      "type_declaration", "impl_item", "struct_item", "enum_item", "trait_item", "mod_item",
      "union_item");

  /** How deep macro bodies inside macro bodies are parsed. */
  private static final int MAX_MACRO_DEPTH = 4;

  private static volatile boolean nativeBroken;

  private final BindingDefinitions binding = new BindingDefinitions();
  private final Map<String, NativeDefinitions.Grammar> grammars = new ConcurrentHashMap<>();
  /** Whether to use the native library when it loads (it is loaded at the first chunking). */
  private final boolean nativeIfLoaded;
  private volatile boolean closed;

  /**
   * A chunker on this project's native library when it loads, else on the binding's. Creating one
   * loads nothing: an index opened only to search never copies or maps the library.
   */
  public Chunker() {
    this.nativeIfLoaded = true;
  }

  /** A chunker on the native library ({@link NativeDefinitions}) or on the binding (tests). */
  Chunker(boolean nativeLibrary) {
    if (nativeLibrary && !NativeDefinitions.available()) {
      throw new IllegalStateException("libprism-native.so is not loaded or not used for parsing");
    }
    this.nativeIfLoaded = nativeLibrary;
  }

  /** Whether tree-sitter chunks {@code language}. */
  public static boolean supports(String language) {
    return BindingDefinitions.GRAMMARS.containsKey(language);
  }

  /** Chunks the text of one file. Never throws for any input text. */
  public List<Chunk> chunk(String text, String language) {
    List<String> lines = SourceLines.split(text);
    List<ChunkBuilder.Def> defs = List.of();
    if (!nativeBroken && !closed && supports(language)) {
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      // As many bytes as chars: ASCII, so no lone surrogate to look for.
      if (utf8.length == text.length() || !hasLoneSurrogate(text)) {
        defs = parsed(text, utf8, language, lines);
      }
    }
    return new ChunkBuilder(lines).build(defs);
  }

  /** The nested definitions of {@code text}, or none when tree-sitter fails on it. */
  private List<ChunkBuilder.Def> parsed(String text, byte[] utf8, String language,
      List<String> lines) {
    try {
      return DocComments.attach(nest(found(text, utf8, language, true, 0)), lines, language);
    } catch (LinkageError e) {
      nativeBroken = true;
      LOG.warn("tree-sitter native library unavailable; chunking by line windows: {}",
          e.toString());
    } catch (RuntimeException e) {
      LOG.debug("tree-sitter failed on a {} file; chunking by line windows", language, e);
    }
    return List.of();
  }

  /**
   * The definitions of {@code text} as the scan finds them: no macro bodies parsed, no doc
   * comments attached (package-private for the equivalence test).
   */
  List<ChunkBuilder.Def> definitions(String text, String language) {
    return nest(found(text, text.getBytes(StandardCharsets.UTF_8), language, false, 0));
  }

  /** The definitions of {@code text}, the items of Rust macro bodies included (for tests). */
  List<ChunkBuilder.Def> items(String text, String language) {
    return nest(found(text, text.getBytes(StandardCharsets.UTF_8), language, true, 0));
  }

  /**
   * The named definitions of {@code text}, flat, with the items of Rust macro bodies when
   * {@code macros} (their bytes and lines shifted to the file's).
   */
  private List<Found> found(String text, byte[] utf8, String language, boolean macros,
      int depth) {
    boolean withBodies = macros && depth < MAX_MACRO_DEPTH;
    List<ScanItem> items;
    if (nativeIfLoaded && NativeDefinitions.available()) {
      try {
        items = NativeDefinitions.scan(grammar(language), utf8, withBodies);
      } catch (NativeLibrary.NativeMemoryException e) {
        // The native parse of this file ran out of memory: the binding parses it instead.
        LOG.warn("{} ({} bytes of {}); parsing it with the tree-sitter binding", e.getMessage(),
            utf8.length, language);
        items = binding.scan(text, language, withBodies);
      }
    } else {
      items = binding.scan(text, language, withBodies);
    }
    List<Found> found = new ArrayList<>();
    if (items == null) {
      return found;
    }
    List<int[]> bodies = new ArrayList<>();
    for (ScanItem item : items) {
      if (!item.definition()) {
        int from = item.startByte() + 1;
        int to = item.endByte() - 1;
        if (to > from && utf8[from - 1] == '{' && utf8[to] == '}') {
          bodies.add(new int[] {from, to, item.startRow()});
        }
        continue;
      }
      String name = text(utf8, item.nameStart(), item.nameEnd());
      if (name != null) {
        found.add(new Found(item.startByte(), item.endByte(), item.startRow() + 1,
            item.endRow() + 1, item.nameRow() + 1, name, item.container()));
      }
    }
    for (int[] body : bodies) {
      int from = body[0];
      int to = body[1];
      // Cut at ASCII braces of valid UTF-8: the body's own UTF-8.
      byte[] body8 = Arrays.copyOfRange(utf8, from, to);
      for (Found f : found(new String(body8, StandardCharsets.UTF_8), body8, language, true,
          depth + 1)) {
        found.add(f.shift(from, body[2]));
      }
    }
    return found;
  }

  private NativeDefinitions.Grammar grammar(String language) {
    return grammars.computeIfAbsent(language,
        l -> NativeDefinitions.grammar(l, DEFINITIONS, CONTAINERS));
  }

  /** A named definition found by the query, before nesting. */
  private static final class Found {
    final int startByte;
    final int endByte;
    final int startLine;
    final int endLine;
    final int nameLine;
    final String name;
    final boolean container;
    final List<Found> children = new ArrayList<>();

    Found(int startByte, int endByte, int startLine, int endLine, int nameLine, String name,
        boolean container) {
      this.startByte = startByte;
      this.endByte = endByte;
      this.startLine = startLine;
      this.endLine = endLine;
      this.nameLine = nameLine;
      this.name = name;
      this.container = container;
    }

    Found shift(int bytes, int lines) {
      return new Found(startByte + bytes, endByte + bytes, startLine + lines, endLine + lines,
          nameLine + lines, name, container);
    }

    boolean contains(Found other) {
      return other.startByte >= startByte && other.endByte <= endByte;
    }

    ChunkBuilder.Def toDef() {
      List<ChunkBuilder.Def> nested = new ArrayList<>(children.size());
      for (Found c : children) {
        nested.add(c.toDef());
      }
      return new ChunkBuilder.Def(startLine, endLine, nameLine, name, container, nested);
    }
  }

  /**
   * The definitions nested by containment. A definition without a name is transparent: its nested
   * definitions attach to the enclosing one. Definitions nested deeper than {@value #MAX_DEPTH}
   * levels are ignored.
   */
  private static List<ChunkBuilder.Def> nest(List<Found> found) {
    // Outer before inner: start ascending, end descending (stable for identical ranges).
    found.sort(Comparator.<Found>comparingInt(f -> f.startByte)
        .thenComparing(Comparator.<Found>comparingInt(f -> f.endByte).reversed()));
    List<Found> roots = new ArrayList<>();
    ArrayDeque<Found> open = new ArrayDeque<>();
    for (Found f : found) {
      while (!open.isEmpty() && !open.peek().contains(f)) {
        open.pop();
      }
      if (open.size() >= MAX_DEPTH) {
        continue;
      }
      (open.isEmpty() ? roots : open.peek().children).add(f);
      open.push(f);
    }
    List<ChunkBuilder.Def> defs = new ArrayList<>(roots.size());
    for (Found f : roots) {
      defs.add(f.toDef());
    }
    return defs;
  }

  private static @Nullable String text(byte[] utf8, int start, int end) {
    if (start < 0 || end > utf8.length || end <= start) {
      return null;
    }
    String s = new String(utf8, start, end - start, StandardCharsets.UTF_8).strip();
    if (s.isEmpty()) {
      return null;
    }
    return s.length() > 200 ? s.substring(0, 200) : s;
  }

  private static boolean hasLoneSurrogate(String text) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
        } else {
          return true;
        }
      } else if (Character.isLowSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    closed = true;
    binding.close();
  }
}
