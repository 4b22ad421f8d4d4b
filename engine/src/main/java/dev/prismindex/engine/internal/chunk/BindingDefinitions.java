package dev.prismindex.engine.internal.chunk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
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
 * The definitions of a file found through the tree-sitter binding ({@code io.github.bonede}): its
 * parser and one query per language capturing every definition node type of that grammar, plus
 * the Rust item macros' token trees. The chunker's path where {@link NativeDefinitions} is not
 * loaded; the same items, slower (the binding's native code is built without optimisation).
 *
 * <p>Thread-safe: parsers are pooled per language and used by one thread at a time (the binding
 * does not synchronise); queries are immutable and shared (one cursor per call); a tree is closed
 * before {@link #scan} returns, so no node outlives its tree. {@link #close()} frees the pooled
 * parsers and the queries.
 */
final class BindingDefinitions implements AutoCloseable {

  static final Map<String, Supplier<TSLanguage>> GRAMMARS = Map.of(
      "java", TreeSitterJava::new,
      "python", TreeSitterPython::new,
      "typescript", TreeSitterTypescript::new,
      "tsx", TreeSitterTsx::new,
      "javascript", TreeSitterJavascript::new,
      "go", TreeSitterGo::new,
      "rust", TreeSitterRust::new);

  /**
   * Rust macro invocations at item level (in a file or in an impl, trait or module body) whose
   * token tree is parsed again as Rust source: {@code cfg_rt! { pub fn spawn ... }}.
   */
  private static final String RUST_MACRO_ITEMS =
      "(source_file (macro_invocation (token_tree) @mac)) "
          + "(declaration_list (macro_invocation (token_tree) @mac))";

  /** The UTF-8 length of U+FEFF (byte order mark, zero-width no-break space). */
  private static final int FEFF_BYTES = 3;

  private final Map<String, TSLanguage> languages = new ConcurrentHashMap<>();
  private final Map<String, Queue<TSParser>> parsers = new ConcurrentHashMap<>();
  private final Map<String, TSQuery> queries = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * The definitions of {@code text} in document order (offsets in the UTF-8 of the whole text),
   * with the Rust item macro bodies when {@code macros}; null when tree-sitter gives no tree.
   */
  @Nullable List<ScanItem> scan(String text, String language, boolean macros) {
    Offsets offsets = Offsets.of(text);
    TSParser parser = borrow(language);
    try {
      TSTree tree = parser.parseString(null, text);
      if (tree == null) {
        return null;
      }
      try {
        return collect(tree.getRootNode(), query(language), offsets, macros);
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
  }

  /**
   * The captures of the query, in order. The query runs in native code, so only definition nodes
   * cross into Java (walking every node through JNI cost more than the parse).
   */
  private static List<ScanItem> collect(TSNode root, TSQuery query, Offsets offsets,
      boolean macros) {
    List<ScanItem> items = new ArrayList<>();
    try (TSQueryCursor cursor = new TSQueryCursor()) {
      cursor.exec(query, root);
      TSQueryMatch match = new TSQueryMatch();
      while (cursor.nextCapture(match)) {
        TSNode node = match.getCaptures()[match.getCaptureIndex()].getNode();
        if (node.getType().equals("token_tree")) {
          if (macros) {
            items.add(new ScanItem(false, offsets.start(node.getStartByte()),
                offsets.end(node.getEndByte()),
                node.getStartPoint().getRow(), 0, 0, 0, 0, false));
          }
          continue;
        }
        TSNode name = node.getNamedChildCount() == 0 ? null : nameNode(node);
        if (name != null) {
          items.add(new ScanItem(true, offsets.start(node.getStartByte()),
              offsets.end(node.getEndByte()), node.getStartPoint().getRow(),
              node.getEndPoint().getRow(), offsets.start(name.getStartByte()),
              offsets.end(name.getEndByte()),
              name.getStartPoint().getRow(), isContainer(node)));
        }
      }
    }
    return items;
  }

  /**
   * The binding hands tree-sitter the text's UTF-8 without any U+FEFF, so its byte offsets fall
   * short by three bytes per U+FEFF before them; this maps them back to the text's UTF-8.
   *
   * @param dropped the offsets, in the binding's bytes, where a U+FEFF was left out (ascending)
   */
  private record Offsets(int[] dropped) {

    static Offsets of(String text) {
      if (text.indexOf('\uFEFF') < 0) {
        return new Offsets(new int[0]);
      }
      int[] dropped = new int[(int) text.chars().filter(c -> c == '\uFEFF').count()];
      int bytes = 0;
      int k = 0;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '\uFEFF') {
          dropped[k++] = bytes;
        } else if (c < 0x80) {
          bytes += 1;
        } else if (c < 0x800) {
          bytes += 2;
        } else if (Character.isHighSurrogate(c)) {
          bytes += 4; // with its low surrogate (the chunker never passes a lone one)
          i++;
        } else {
          bytes += 3;
        }
      }
      return new Offsets(dropped);
    }

    /** A node's first byte: after every U+FEFF left out at or before it. */
    int start(int offset) {
      return offset + FEFF_BYTES * count(offset, true);
    }

    /** A node's end (exclusive): after every U+FEFF left out before it. */
    int end(int offset) {
      return offset + FEFF_BYTES * count(offset, false);
    }

    private int count(int offset, boolean atOrBefore) {
      int n = 0;
      while (n < dropped.length && (dropped[n] < offset || atOrBefore && dropped[n] == offset)) {
        n++;
      }
      return n;
    }
  }

  /** Whether the definition node is a type whose members become chunks of their own. */
  static boolean isContainer(TSNode node) {
    if (node.getType().equals("decorated_definition")) {
      TSNode inner = node.getChildByFieldName("definition");
      return !inner.isNull() && isContainer(inner);
    }
    return Chunker.CONTAINERS.contains(node.getType());
  }

  /**
   * The node holding the definition's name (its line is the definition's header line); the C
   * walker of {@link NativeDefinitions} has the same rules.
   */
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
      for (String type : new TreeSet<>(Chunker.DEFINITIONS)) {
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
