package dev.prismindex.engine.internal.chunk;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.treesitter.TSLanguage;
import org.treesitter.TSNode;
import org.treesitter.TSParser;
import org.treesitter.TSQuery;
import org.treesitter.TSQueryCursor;
import org.treesitter.TSQueryMatch;
import org.treesitter.TSTree;
import org.treesitter.TreeSitterGo;
import org.treesitter.TreeSitterJava;
import org.treesitter.TreeSitterJavascript;
import org.treesitter.TreeSitterPython;
import org.treesitter.TreeSitterRust;
import org.treesitter.TreeSitterTsx;
import org.treesitter.TreeSitterTypescript;

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
 * tree-sitter binding's parser and a query per language do (same definitions, slower).
 *
 * <p>Thread-safe: parsers are pooled per language and a parser is used by one thread at a time
 * (the binding does not synchronise). Trees are closed before the chunks are built, so no node
 * outlives its tree. {@link #close()} frees the pooled parsers.
 */
public final class Chunker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Chunker.class);
  private static final int MAX_DEPTH = 256;

  private static final Map<String, Supplier<TSLanguage>> GRAMMARS = Map.of(
      "java", TreeSitterJava::new,
      "python", TreeSitterPython::new,
      "typescript", TreeSitterTypescript::new,
      "tsx", TreeSitterTsx::new,
      "javascript", TreeSitterJavascript::new,
      "go", TreeSitterGo::new,
      "rust", TreeSitterRust::new);

  private static final Set<String> DEFINITIONS = Set.of(
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
  private static final Set<String> CONTAINERS = Set.of(
      "class_declaration", "interface_declaration", "record_declaration", "enum_declaration",
      "annotation_type_declaration", "class_definition", "abstract_class_declaration",
      "type_declaration", "impl_item", "struct_item", "enum_item", "trait_item", "mod_item",
      "union_item");

  /**
   * Rust macro invocations at item level (in a file or in an impl, trait or module body) whose
   * token tree is parsed again as Rust source: {@code cfg_rt! { pub fn spawn ... }}.
   */
  private static final String RUST_MACRO_ITEMS =
      "(source_file (macro_invocation (token_tree) @mac)) "
          + "(declaration_list (macro_invocation (token_tree) @mac))";
  /** How deep macro bodies inside macro bodies are parsed. */
  private static final int MAX_MACRO_DEPTH = 4;

  private static volatile boolean nativeBroken;

  private final Map<String, TSLanguage> languages = new ConcurrentHashMap<>();
  private final Map<String, Queue<TSParser>> parsers = new ConcurrentHashMap<>();
  private final Map<String, TSQuery> queries = new ConcurrentHashMap<>();
  private final Map<String, NativeDefinitions.Grammar> grammars = new ConcurrentHashMap<>();
  private final boolean nativeLibrary;
  private volatile boolean closed;

  /** A chunker on this project's native library when it is loaded, else on the binding's. */
  public Chunker() {
    this(NativeDefinitions.available());
  }

  /** A chunker on the native library ({@link NativeDefinitions}) or on the binding (tests). */
  Chunker(boolean nativeLibrary) {
    if (nativeLibrary && !NativeDefinitions.available()) {
      throw new IllegalStateException("libprism-tree-sitter.so is not loaded");
    }
    this.nativeLibrary = nativeLibrary;
  }

  /** Whether tree-sitter chunks {@code language}. */
  public static boolean supports(String language) {
    return GRAMMARS.containsKey(language);
  }

  /** Chunks the text of one file. Never throws for any input text. */
  public List<Chunk> chunk(String text, String language) {
    List<String> lines = SourceLines.split(text);
    List<ChunkBuilder.Def> defs = List.of();
    if (!nativeBroken && !closed && GRAMMARS.containsKey(language) && !hasLoneSurrogate(text)) {
      try {
        defs = DocComments.attach(nest(found(text, language, true, 0)), lines, language);
      } catch (LinkageError e) {
        nativeBroken = true;
        LOG.warn("tree-sitter native library unavailable; chunking by line windows: {}",
            e.toString());
      } catch (RuntimeException e) {
        LOG.debug("tree-sitter failed on a {} file; chunking by line windows", language, e);
      }
    }
    return new ChunkBuilder(lines).build(defs);
  }

  /**
   * The definitions of {@code text} as the query finds them: no macro bodies parsed, no doc
   * comments attached (package-private for the equivalence test).
   */
  List<ChunkBuilder.Def> definitions(String text, String language) {
    return nest(found(text, language, false, 0));
  }

  /** The definitions of {@code text}, the items of Rust macro bodies included (for tests). */
  List<ChunkBuilder.Def> items(String text, String language) {
    return nest(found(text, language, true, 0));
  }

  /**
   * The named definitions of {@code text}, flat, with the items of Rust macro bodies when
   * {@code macros} (their bytes and lines shifted to the file's).
   */
  private List<Found> found(String text, String language, boolean macros, int depth) {
    List<Found> found = new ArrayList<>();
    List<int[]> bodies = new ArrayList<>();
    if (nativeLibrary) {
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      collect(grammar(language), utf8, found, macros && depth < MAX_MACRO_DEPTH ? bodies : null);
      return withMacroItems(found, bodies, utf8, language, depth);
    }
    // The binding hands tree-sitter the text's UTF-8 without a leading byte order mark: its
    // offsets count those bytes.
    byte[] utf8 = (text.startsWith("\uFEFF") ? text.substring(1) : text)
        .getBytes(StandardCharsets.UTF_8);
    TSParser parser = borrow(language);
    try {
      TSTree tree = parser.parseString(null, text);
      if (tree == null) {
        return found;
      }
      try {
        collect(tree.getRootNode(), query(language), utf8, found,
            macros && depth < MAX_MACRO_DEPTH ? bodies : null);
      } finally {
        tree.close();
      }
    } finally {
      if (closed) {
        parser.close();
      } else {
        parsers.computeIfAbsent(language, k -> new ConcurrentLinkedQueue<>()).offer(parser);
      }
    }
    return withMacroItems(found, bodies, utf8, language, depth);
  }

  /** {@code found} plus the items of the Rust macro {@code bodies}, parsed again as Rust. */
  private List<Found> withMacroItems(List<Found> found, List<int[]> bodies, byte[] utf8,
      String language, int depth) {
    for (int[] body : bodies) {
      int from = body[0];
      int to = body[1];
      String inner = new String(utf8, from, to - from, StandardCharsets.UTF_8);
      for (Found f : found(inner, language, true, depth + 1)) {
        found.add(f.shift(from, body[2]));
      }
    }
    return found;
  }

  private NativeDefinitions.Grammar grammar(String language) {
    return grammars.computeIfAbsent(language,
        l -> NativeDefinitions.grammar(l, DEFINITIONS, CONTAINERS));
  }

  /** Adds the definitions the native library finds in {@code utf8}, as {@link #collect} does. */
  private static void collect(NativeDefinitions.Grammar grammar, byte[] utf8, List<Found> found,
      @Nullable List<int[]> bodies) {
    List<NativeDefinitions.Item> items = NativeDefinitions.scan(grammar, utf8, bodies != null);
    if (items == null) {
      return;
    }
    for (NativeDefinitions.Item item : items) {
      if (!item.definition()) {
        int from = item.startByte() + 1;
        int to = item.endByte() - 1;
        if (bodies != null && to > from && utf8[from - 1] == '{' && utf8[to] == '}') {
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
  }

  private TSLanguage language(String language) {
    return languages.computeIfAbsent(language, l -> GRAMMARS.get(l).get());
  }

  /**
   * One query per language capturing every node whose type is a definition type of that grammar.
   * Queries are immutable once built and shared by all threads (each call has its own cursor).
   */
  private TSQuery query(String language) {
    return queries.computeIfAbsent(language, l -> {
      TSLanguage lang = language(l);
      StringBuilder q = new StringBuilder("[");
      for (String type : new TreeSet<>(DEFINITIONS)) {
        if (lang.symbolForName(type, true) != 0) {
          q.append('(').append(type).append(") ");
        }
      }
      q.append("] @def");
      if (l.equals("rust")) {
        q.append(' ').append(RUST_MACRO_ITEMS);
      }
      return new TSQuery(lang, q.toString());
    });
  }

  private TSParser borrow(String language) {
    Queue<TSParser> pool = parsers.computeIfAbsent(language, k -> new ConcurrentLinkedQueue<>());
    TSParser parser = pool.poll();
    if (parser == null) {
      parser = new TSParser();
      parser.setLanguage(language(language));
    }
    return parser;
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
   * Adds the named definitions of the tree to {@code found}. The query runs in native code, so
   * only definition nodes cross into Java (walking every node through JNI cost more than the
   * parse). With {@code bodies} non-null, the inner byte range and first row of each item-level
   * Rust macro body in braces are added to it ({@code [from, to, row]}).
   */
  private static void collect(TSNode root, TSQuery query, byte[] utf8, List<Found> found,
      @Nullable List<int[]> bodies) {
    try (TSQueryCursor cursor = new TSQueryCursor()) {
      cursor.exec(query, root);
      TSQueryMatch match = new TSQueryMatch();
      while (cursor.nextCapture(match)) {
        TSNode node = match.getCaptures()[match.getCaptureIndex()].getNode();
        if (node.getType().equals("token_tree")) {
          int from = node.getStartByte() + 1;
          int to = node.getEndByte() - 1;
          if (bodies != null && to > from && utf8[from - 1] == '{' && utf8[to] == '}') {
            bodies.add(new int[] {from, to, node.getStartPoint().getRow()});
          }
          continue;
        }
        if (node.getNamedChildCount() == 0) {
          continue;
        }
        TSNode nameNode = nameNode(node);
        String name = nameNode == null ? null : text(nameNode, utf8);
        if (name != null) {
          found.add(new Found(node.getStartByte(), node.getEndByte(),
              node.getStartPoint().getRow() + 1, node.getEndPoint().getRow() + 1,
              nameNode.getStartPoint().getRow() + 1, name, isContainer(node)));
        }
      }
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

  /** Whether the definition node is a type whose members become chunks of their own. */
  static boolean isContainer(TSNode node) {
    if (node.getType().equals("decorated_definition")) {
      TSNode inner = node.getChildByFieldName("definition");
      return !inner.isNull() && isContainer(inner);
    }
    return CONTAINERS.contains(node.getType());
  }

  static @Nullable String nameOf(TSNode node, byte[] utf8) {
    TSNode n = nameNode(node);
    return n == null ? null : text(n, utf8);
  }

  /** The node holding the definition's name (its line is the definition's header line). */
  static @Nullable TSNode nameNode(TSNode node) {
    String type = node.getType();
    switch (type) {
      case "decorated_definition": {
        TSNode inner = node.getChildByFieldName("definition");
        return inner.isNull() ? null : nameNode(inner);
      }
      case "impl_item": {
        TSNode t = node.getChildByFieldName("type");
        return t.isNull() ? null : t;
      }
      case "type_declaration": {
        for (int i = 0; i < node.getNamedChildCount(); i++) {
          TSNode spec = node.getNamedChild(i);
          TSNode n = spec.getChildByFieldName("name");
          if (!n.isNull()) {
            return n;
          }
        }
        return null;
      }
      case "lexical_declaration":
      case "variable_declaration": {
        for (int i = 0; i < node.getNamedChildCount(); i++) {
          TSNode declarator = node.getNamedChild(i);
          TSNode value = declarator.getChildByFieldName("value");
          if (!value.isNull() && (value.getType().equals("arrow_function")
              || value.getType().equals("function_expression")
              || value.getType().equals("function"))) {
            TSNode n = declarator.getChildByFieldName("name");
            return n.isNull() ? null : n;
          }
        }
        return null;
      }
      default: {
        TSNode n = node.getChildByFieldName("name");
        return n.isNull() ? null : n;
      }
    }
  }

  private static @Nullable String text(TSNode node, byte[] utf8) {
    return text(utf8, node.getStartByte(), node.getEndByte());
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
    for (TSQuery q : queries.values()) {
      q.close();
    }
    queries.clear();
    for (Queue<TSParser> pool : parsers.values()) {
      TSParser p;
      while ((p = pool.poll()) != null) {
        p.close();
      }
    }
  }
}
