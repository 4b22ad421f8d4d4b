package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.Definition.Kind;
import dev.prismindex.benchmarks.quality.Definition.Span;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.treesitter.TSNode;
import org.treesitter.TSParser;
import org.treesitter.TSTree;

/**
 * Finds the definitions of a language's source files with tree-sitter, each with its doc comment:
 *
 * <ul>
 *   <li>Java: methods and types; doc = the Javadoc comment directly before.
 *   <li>Python: {@code function_definition} (top level or in a class) and classes; doc = the
 *       docstring, the body's first statement when it is a string.
 *   <li>Go: {@code function_declaration}, {@code method_declaration} and type specs; doc = the
 *       contiguous {@code //} lines directly above.
 *   <li>Rust: {@code function_item} (top level, in impl, trait or mod) and struct, enum, trait,
 *       type and union items; doc = the contiguous {@code ///} lines (or a {@code /** *}{@code /})
 *       directly above, attributes allowed in between. Items inside item-level macro invocations
 *       with a brace body ({@code cfg_rt! { ... }}, {@code pin_project! { ... }}) are found by
 *       parsing the token tree's inner text as Rust source, lines and bytes offset back.
 *   <li>TypeScript: {@code function_declaration}, {@code method_definition}, {@code const x =}
 *       arrow functions and function expressions, and classes, interfaces, type aliases, enums;
 *       doc = the {@code /** *}{@code /} comment directly above (above the {@code export}
 *       statement when exported, above the first overload signature when overloaded).
 *   <li>TSX and JavaScript: as TypeScript, with their own grammars.
 * </ul>
 *
 * A comment is "directly above" when at most its own line break separates it from the next part.
 */
final class DefinitionExtractor implements AutoCloseable {

  private static final Set<String> JAVA_TYPES = Set.of("class_declaration",
      "interface_declaration", "enum_declaration", "record_declaration",
      "annotation_type_declaration");
  private static final Set<String> RUST_TYPES = Set.of("struct_item", "enum_item", "trait_item",
      "type_item", "union_item");
  private static final Set<String> TS_FUNCTIONS = Set.of("function_declaration",
      "generator_function_declaration", "method_definition");
  private static final Set<String> TS_FUNCTION_VALUES = Set.of("arrow_function",
      "function_expression", "function", "generator_function");
  private static final Set<String> TS_TYPES = Set.of("class_declaration",
      "abstract_class_declaration", "interface_declaration", "type_alias_declaration",
      "enum_declaration");
  private static final Set<String> TS_SIGNATURES = Set.of("function_signature",
      "method_signature");

  private final Language language;
  private final TSParser parser = new TSParser();

  DefinitionExtractor(Language language) {
    this.language = language;
    parser.setLanguage(language.grammar());
  }

  /** The definitions of every file of {@code files} below {@code dir}, in path then tree order. */
  static List<Definition> definitions(Path dir, List<String> files, Language language)
      throws IOException {
    List<Definition> out = new ArrayList<>();
    try (DefinitionExtractor x = new DefinitionExtractor(language)) {
      for (String path : files) {
        if (language.isSource(path)) {
          out.addAll(x.extract(path, Files.readAllBytes(dir.resolve(path))));
        }
      }
    }
    return out;
  }

  /** The definitions of one file's text. */
  List<Definition> extract(String path, byte[] utf8) {
    List<Definition> out = new ArrayList<>();
    parse(new Source(path, utf8, 0, 0), new String(utf8, StandardCharsets.UTF_8), out);
    return out;
  }

  @Override
  public void close() {
    parser.close();
  }

  /** A parsed text: the file, and where the parsed text starts in it (bytes, rows). */
  private record Source(String path, byte[] utf8, int byteOffset, int rowOffset) {

    int start(TSNode n) {
      return byteOffset + n.getStartByte();
    }

    int end(TSNode n) {
      return byteOffset + n.getEndByte();
    }

    /** 1-based file line of the node's first row. */
    int line(TSNode n) {
      return rowOffset + n.getStartPoint().getRow() + 1;
    }

    /** 1-based file line of the node's last row. */
    int endLine(TSNode n) {
      return rowOffset + n.getEndPoint().getRow() + 1;
    }

    String text(TSNode n) {
      return new String(utf8, start(n), end(n) - start(n), StandardCharsets.UTF_8);
    }
  }

  private void parse(Source src, String text, List<Definition> out) {
    TSTree tree = parser.parseString(null, text);
    if (tree == null) {
      return;
    }
    try {
      walk(tree.getRootNode(), src, out);
    } finally {
      tree.close();
    }
  }

  private void walk(TSNode node, Source src, List<Definition> out) {
    Definition d = definition(node, src);
    if (d != null) {
      out.add(d);
    }
    if (language == Language.RUST && node.getType().equals("macro_invocation")) {
      macroItems(node, src, out);
      return;
    }
    int n = node.getChildCount();
    for (int i = 0; i < n; i++) {
      walk(node.getChild(i), src, out);
    }
  }

  /**
   * Parses the brace body of an item-level macro invocation as Rust items (tree-sitter leaves it
   * as a token tree) and walks that tree with the body's offsets.
   */
  private void macroItems(TSNode macro, Source src, List<Definition> out) {
    TSNode parent = macro.getParent();
    if (parent.getType().equals("expression_statement")) {
      parent = parent.getParent();
    }
    String where = parent.isNull() ? "" : parent.getType();
    if (!where.equals("source_file") && !where.equals("declaration_list")) {
      return;
    }
    TSNode body = null;
    for (int i = macro.getNamedChildCount() - 1; i >= 0; i--) {
      TSNode c = macro.getNamedChild(i);
      if (c.getType().equals("token_tree")) {
        body = c;
        break;
      }
    }
    if (body == null || src.utf8[src.start(body)] != '{' || body.getEndByte() - body.getStartByte()
        < 2) {
      return;
    }
    int from = src.start(body) + 1;
    int to = src.end(body) - 1;
    Source inner = new Source(src.path, src.utf8, from,
        src.rowOffset + body.getStartPoint().getRow());
    parse(inner, new String(Arrays.copyOfRange(src.utf8, from, to), StandardCharsets.UTF_8), out);
  }

  private @Nullable Definition definition(TSNode node, Source src) {
    String type = node.getType();
    return switch (language) {
      case JAVA -> type.equals("method_declaration")
          ? commented(node, node, src, Kind.FUNCTION, hasField(node, "body"))
          : JAVA_TYPES.contains(type) ? commented(node, node, src, Kind.TYPE, false) : null;
      case PYTHON -> type.equals("function_definition") || type.equals("class_definition")
          ? python(node, src) : null;
      case GO -> switch (type) {
        case "function_declaration", "method_declaration" ->
            commented(node, node, src, Kind.FUNCTION, hasField(node, "body"));
        case "type_spec" -> commented(node, node.getParent().getNamedChildCount() == 1
            ? node.getParent() : node, src, Kind.TYPE, false);
        default -> null;
      };
      case RUST -> type.equals("function_item")
          ? commented(node, node, src, Kind.FUNCTION, hasField(node, "body"))
          : RUST_TYPES.contains(type) ? commented(node, node, src, Kind.TYPE, false) : null;
      case TYPESCRIPT, TSX, JAVASCRIPT -> typescript(node, src);
    };
  }

  private @Nullable Definition typescript(TSNode node, Source src) {
    String type = node.getType();
    if (TS_FUNCTIONS.contains(type)) {
      return commented(node, exported(node), src, Kind.FUNCTION, hasField(node, "body"));
    }
    if (TS_TYPES.contains(type)) {
      return commented(node, exported(node), src, Kind.TYPE, false);
    }
    if (type.equals("variable_declarator")) {
      TSNode value = node.getChildByFieldName("value");
      TSNode decl = node.getParent();
      if (!value.isNull() && TS_FUNCTION_VALUES.contains(value.getType())
          && decl.getNamedChildCount() == 1) {
        return commented(node, exported(decl), src, Kind.FUNCTION, hasField(value, "body"));
      }
    }
    return null;
  }

  private static TSNode exported(TSNode node) {
    TSNode p = node.getParent();
    return !p.isNull() && p.getType().equals("export_statement") ? p : node;
  }

  private static boolean hasField(TSNode node, String field) {
    return !node.getChildByFieldName(field).isNull();
  }

  /**
   * A definition whose doc comment precedes {@code anchor} (the node itself, or the statement
   * that wraps it): collects, going backwards over adjacent siblings, the doc comment lines and
   * (Rust) attributes or (TypeScript) overload signatures of the same name.
   */
  private @Nullable Definition commented(TSNode node, TSNode anchor, Source src, Kind kind,
      boolean hasBody) {
    TSNode nameNode = node.getChildByFieldName("name");
    if (nameNode.isNull()) {
      return null;
    }
    String name = src.text(nameNode);
    int start = src.line(anchor);
    List<TSNode> docs = new ArrayList<>();
    int nextLine = start; // the first line of what follows the sibling looked at
    boolean afterComment = false;
    for (TSNode p = anchor.getPrevNamedSibling(); !p.isNull(); p = p.getPrevNamedSibling()) {
      String pt = p.getType();
      String t = src.text(p);
      boolean adjacent = src.endLine(p) >= nextLine - 1
          || pt.equals("line_comment") && src.line(p) == nextLine - 1;
      if (!adjacent) {
        break;
      }
      if (isDocComment(pt, t)) {
        boolean block = t.startsWith("/*");
        if (block && afterComment) {
          break; // a second comment block above the doc is not part of it
        }
        docs.add(0, p);
        afterComment = true;
        if (block && !language.isScript()) {
          break;
        }
      } else if (language == Language.RUST && pt.equals("line_comment")) {
        // A plain // line: not doc, but rustdoc joins the /// lines around it.
      } else if (language == Language.RUST && pt.equals("attribute_item") && docs.isEmpty()) {
        start = src.line(p);
        afterComment = false;
      } else if (language.isScript() && isOverload(p, name, src)) {
        start = src.line(p);
        afterComment = false;
      } else {
        break;
      }
      nextLine = src.line(p);
    }
    List<Span> spans = new ArrayList<>();
    StringBuilder doc = new StringBuilder();
    for (TSNode c : docs) {
      spans.add(new Span(src.start(c), src.end(c)));
      if (language.isScript() && doc.length() > 0) {
        continue; // the first overload's doc is the query's; every span is blanked
      }
      if (doc.length() > 0) {
        doc.append('\n');
      }
      doc.append(src.text(c).stripTrailing());
    }
    return new Definition(src.path, language, kind, name, src.line(nameNode), start,
        src.endLine(node), hasBody, doc.length() == 0 ? null : doc.toString(), spans);
  }

  private boolean isDocComment(String type, String text) {
    return switch (language) {
      case JAVA -> type.equals("block_comment") && text.startsWith("/**") && !text.equals("/**/");
      case TYPESCRIPT, TSX, JAVASCRIPT -> type.equals("comment") && text.startsWith("/**")
          && !text.equals("/**/");
      case GO -> type.equals("comment") && text.startsWith("//");
      case RUST -> type.equals("line_comment") && text.startsWith("///") && !text.startsWith("////")
          || type.equals("block_comment") && text.startsWith("/**") && !text.equals("/**/");
      case PYTHON -> false;
    };
  }

  private static boolean isOverload(TSNode p, String name, Source src) {
    TSNode s = p.getType().equals("export_statement") && p.getNamedChildCount() > 0
        ? p.getNamedChild(0) : p;
    if (!TS_SIGNATURES.contains(s.getType())) {
      return false;
    }
    TSNode n = s.getChildByFieldName("name");
    return !n.isNull() && src.text(n).equals(name);
  }

  /** A Python function or class; its docstring is the body's first statement when a string. */
  private Definition python(TSNode node, Source src) {
    TSNode nameNode = node.getChildByFieldName("name");
    TSNode parent = node.getParent();
    TSNode anchor = !parent.isNull() && parent.getType().equals("decorated_definition")
        ? parent : node;
    TSNode body = node.getChildByFieldName("body");
    String doc = null;
    List<Span> spans = List.of();
    int statements = 0;
    if (!body.isNull()) {
      for (int i = 0; i < body.getNamedChildCount(); i++) {
        TSNode s = body.getNamedChild(i);
        if (s.getType().equals("comment")) {
          continue;
        }
        if (statements == 0 && s.getType().equals("expression_statement")
            && s.getNamedChildCount() == 1 && s.getNamedChild(0).getType().equals("string")) {
          doc = src.text(s.getNamedChild(0));
          spans = List.of(new Span(src.start(s), src.end(s)));
        }
        statements++;
      }
    }
    boolean function = node.getType().equals("function_definition");
    // A body of nothing but its docstring is no body once the docstring is blanked.
    boolean hasBody = function && statements > (doc == null ? 0 : 1);
    return new Definition(src.path, language, function ? Kind.FUNCTION : Kind.TYPE,
        src.text(nameNode), src.line(nameNode), src.line(anchor), src.endLine(node), hasBody, doc,
        spans);
  }
}
