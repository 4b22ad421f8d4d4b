package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.benchmarks.quality.Definition.Kind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The multi-language definition extractor and the query sentence taken from each doc. */
class DefinitionExtractorTest {

  private static List<Definition> extract(Language language, String path, String src) {
    try (DefinitionExtractor x = new DefinitionExtractor(language)) {
      return x.extract(path, src.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static Definition named(List<Definition> defs, String name) {
    return defs.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow(
        () -> new AssertionError(name + " not among " + defs));
  }

  private static String sentence(Definition d) {
    return DocSentence.first(d.language(), d.doc(), d.name());
  }

  /** The text of the file that the definition's doc spans cover, blanked like the corpus. */
  private static String blanked(String src, Definition d) {
    byte[] data = src.getBytes(StandardCharsets.UTF_8);
    for (Definition.Span s : d.docSpans()) {
      CorpusFiles.blank(data, s.start(), s.end());
    }
    return new String(data, StandardCharsets.UTF_8);
  }

  @Test
  void pythonDocstringIsTheFirstBodyStringAndIsBlankedInPlace() {
    String src = "class Box:\n    \"\"\"A box.\"\"\"\n\n    @staticmethod\n"
        + "    def merge_all(a, b):\n        \"\"\" Merge the ``dicts`` and :func:`apply` a function"
        + " to values.\n\n        >>> merge_all(1, 2)\n        \"\"\"\n        return a\n\n"
        + "def only_doc():\n    'Does nothing at all here.'\n";
    List<Definition> defs = extract(Language.PYTHON, "pkg/box.py", src);
    assertThat(defs).extracting(Definition::name).containsExactly("Box", "merge_all", "only_doc");
    Definition m = named(defs, "merge_all");
    assertThat(m.kind()).isEqualTo(Kind.FUNCTION);
    assertThat(m.startLine()).isEqualTo(4); // the decorator belongs to the header
    assertThat(m.nameLine()).isEqualTo(5);
    assertThat(m.endLine()).isEqualTo(10);
    assertThat(sentence(m)).isEqualTo("Merge the dicts and apply a function to values");
    String b = blanked(src, m);
    assertThat(b).doesNotContain("Merge the").contains("return a");
    assertThat(b.lines().count()).isEqualTo(src.lines().count());
    // A body that is only its docstring is none once blanked.
    assertThat(named(defs, "only_doc").isFunctionWithBody()).isFalse();
    assertThat(sentence(named(defs, "only_doc"))).isEqualTo("Does nothing at all here");
  }

  @Test
  void goDocIsTheContiguousLineCommentsAboveWithTheLeadingNameDropped() {
    String src = "package cobra\n\n// unrelated\n\n// SetOutput sets the destination for usage"
        + " messages.\n// If output is nil, os.Stderr is used.\nfunc (c *Command) SetOutput(o"
        + " io.Writer) {\n\tc.out = o\n}\n\n// Detached comment.\n\nfunc Bare() {}\n";
    List<Definition> defs = extract(Language.GO, "command.go", src);
    Definition set = named(defs, "SetOutput");
    assertThat(set.startLine()).isEqualTo(7);
    assertThat(set.endLine()).isEqualTo(9);
    assertThat(set.docSpans()).hasSize(2);
    assertThat(sentence(set)).isEqualTo("sets the destination for usage messages");
    assertThat(named(defs, "Bare").doc()).isNull();
    assertThat(blanked(src, set)).doesNotContain("SetOutput sets").contains("// unrelated");
  }

  @Test
  void rustDocSkipsAttributesAndItemsInsideMacroBlocksKeepTheirLines() {
    String src = "use std::io;\n\n/// Spawns a new [`JoinHandle`] on the `runtime`.\n///\n"
        + "/// # Examples\n#[track_caller]\n#[inline]\npub fn spawn_task() -> u32 {\n    1\n}\n\n"
        + "cfg_rt! {\n    /// Blocks the current thread until the future resolves.\n"
        + "    pub fn block_on_future(f: F) -> u32 {\n        2\n    }\n}\n\n"
        + "impl Handle {\n    pin_project! {\n        /// Polls the inner timer once.\n"
        + "        fn poll_inner_timer(&self) {}\n    }\n}\n";
    List<Definition> defs = extract(Language.RUST, "src/task/spawn.rs", src);
    Definition spawn = named(defs, "spawn_task");
    assertThat(spawn.startLine()).isEqualTo(6); // attributes are part of the header
    assertThat(spawn.endLine()).isEqualTo(10);
    assertThat(sentence(spawn)).isEqualTo("Spawns a new JoinHandle on the runtime");

    Definition block = named(defs, "block_on_future");
    assertThat(block.nameLine()).isEqualTo(14);
    assertThat(block.startLine()).isEqualTo(14);
    assertThat(block.endLine()).isEqualTo(16);
    assertThat(block.isFunctionWithBody()).isTrue();
    assertThat(sentence(block)).isEqualTo("Blocks the current thread until the future resolves");
    assertThat(blanked(src, block)).doesNotContain("Blocks the current").contains("cfg_rt! {");

    Definition nested = named(defs, "poll_inner_timer");
    assertThat(nested.nameLine()).isEqualTo(22);
    assertThat(sentence(nested)).isEqualTo("Polls the inner timer once");
  }

  @Test
  void rustDocRunsOverAPlainLineCommentAsRustdocDoes() {
    String src = "/// Sets the write access flag.\n///\n/// ```\n/// use a;\n//\n/// use b;\n"
        + "/// ```\npub fn write_dac(x: bool) {}\n";
    Definition d = named(extract(Language.RUST, "src/pipe.rs", src), "write_dac");
    assertThat(d.docSpans()).hasSize(6);
    assertThat(sentence(d)).isEqualTo("Sets the write access flag");
    assertThat(blanked(src, d)).doesNotContain("write access").doesNotContain("use b");
  }

  @Test
  void typescriptDocPrecedesTheExportAndTheFirstOverload() {
    String src = "/** License header. */\n\n/** Creates a tuple type from the given items. */\n"
        + "export function Tuple<T>(items: T[]): T {\n  return items[0]\n}\n\n"
        + "export class Builder {\n  /** `[Standard]` Creates a constructor type */\n"
        + "  public Ctor(a: string): number\n  /** Creates a constructor type */\n"
        + "  public Ctor(a: number): number\n  public Ctor(a: any): number {\n    return 1\n  }\n"
        + "}\n\n/** Checks that the {@link Value} is a string. */\n"
        + "export const isStringValue = (v: unknown) => typeof v === 'string'\n";
    List<Definition> defs = extract(Language.TYPESCRIPT, "src/typebox.ts", src);
    Definition tuple = named(defs, "Tuple");
    assertThat(tuple.startLine()).isEqualTo(4);
    assertThat(tuple.endLine()).isEqualTo(6);
    assertThat(tuple.docSpans()).hasSize(1); // not the license comment above it
    assertThat(sentence(tuple)).isEqualTo("Creates a tuple type from the given items");

    Definition ctor = defs.stream().filter(d -> d.name().equals("Ctor") && d.hasBody())
        .findFirst().orElseThrow();
    assertThat(ctor.startLine()).isEqualTo(10); // the first overload signature
    assertThat(ctor.endLine()).isEqualTo(15);
    assertThat(ctor.docSpans()).hasSize(2); // every overload's doc is blanked
    assertThat(sentence(ctor)).isEqualTo("Creates a constructor type");
    assertThat(blanked(src, ctor)).doesNotContain("constructor type");

    Definition arrow = named(defs, "isStringValue");
    assertThat(arrow.kind()).isEqualTo(Kind.FUNCTION);
    assertThat(arrow.isFunctionWithBody()).isTrue();
    assertThat(arrow.startLine()).isEqualTo(19);
    assertThat(sentence(arrow)).isEqualTo("Checks that the Value is a string");
    assertThat(named(defs, "Builder").kind()).isEqualTo(Kind.TYPE);
  }

  @Test
  void javascriptAndTsxAreExtractedLikeTypescript() {
    String js = "/**\n * Merges the own properties of the sources into the target.\n */\n"
        + "function assignIn(target, ...sources) {\n  return Object.assign(target, ...sources)\n}\n"
        + "\nclass Queue {\n  /** Removes and returns the first item of the queue. */\n"
        + "  shift() {\n    return this.items.shift()\n  }\n}\n";
    List<Definition> defs = extract(Language.JAVASCRIPT, "lib/util.js", js);
    assertThat(sentence(named(defs, "assignIn")))
        .isEqualTo("Merges the own properties of the sources into the target");
    assertThat(sentence(named(defs, "shift"))).isEqualTo("Removes and returns the first item of"
        + " the queue");
    assertThat(Language.ofPath("lib/util.mjs")).isEqualTo(Language.JAVASCRIPT);

    String tsx = "/** Renders the user's avatar with a fallback. */\n"
        + "export function Avatar({ user }: Props) {\n  return <img src={user.url} alt=\"\" />\n}\n";
    Definition avatar = named(extract(Language.TSX, "src/Avatar.tsx", tsx), "Avatar");
    assertThat(avatar.isFunctionWithBody()).isTrue();
    assertThat(sentence(avatar)).isEqualTo("Renders the user's avatar with a fallback");
    assertThat(Language.ofPath("src/Avatar.tsx")).isEqualTo(Language.TSX);
    assertThat(Language.ofPath("src/types.d.ts")).isNull();
  }

  @Test
  void aLeadingNameIsDroppedInAnyLanguage() {
    assertThat(DocSentence.dropName("parseDuration() parses a duration string", "parseDuration"))
        .isEqualTo("parses a duration string");
    assertThat(DocSentence.dropName("`merge`: merges two maps", "merge"))
        .isEqualTo("merges two maps");
    assertThat(DocSentence.dropName("Parses a duration", "parse")).isEqualTo("Parses a duration");
    assertThat(DocSentence.first(Language.RUST, "/// `Foo` returns [`Bar`] values\n/// more.",
        "Foo")).isEqualTo("returns Bar values more");
  }
}
