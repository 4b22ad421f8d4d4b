package dev.prismindex.engine.internal.chunk;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text the embedding model sees for a chunk (its vector key is the BLAKE3 of exactly this
 * text, so the embedding cache stays exact and deterministic). By default ({@link
 * Variant#CONTEXT_SPLIT}) a short context header, then the chunk's text with its identifiers split
 * into words, then the original text when all of it stays within about {@value #BOTH_MAX_CHARS}
 * characters (the model reads a few hundred word pieces):
 *
 * <pre>
 * path: src/runtime/task/join.rs
 * in: join handle
 * symbol: abort handle
 * signature: pub fn abort_handle(&amp;self) -&gt; AbortHandle {
 * ...the chunk, identifiers split: pub fn abort handle(&amp;self) -&gt; abort handle {...
 * </pre>
 *
 * <p>{@code in:} is the enclosing type, {@code symbol:} the chunk's main definition, both split
 * into words ({@code getEntryCount}, {@code get_entry_count} and {@code GetEntryCount} all become
 * {@code get entry count}); {@code signature:} the definition's header line, when the chunk holds
 * it. Queries are embedded as they are.
 *
 * <p>Other variants exist only to measure them with the quality benchmark: the system property
 * {@code prism.embedText} = {@code raw} (the chunk text alone, as before), {@code context} (header
 * and the original text), {@code context-split} (the default), {@code signature} (the header
 * alone). The variant changes the texts and so the keys: an index built with one variant re-embeds
 * every chunk under another.
 */
public final class EmbedText {

  /** What is embedded for a chunk. */
  public enum Variant {
    RAW, CONTEXT, CONTEXT_SPLIT, SIGNATURE;

    /** The variant named by {@code name} ({@code context-split}), the default when unknown. */
    static Variant parse(String name) {
      for (Variant v : values()) {
        if (v.name().replace('_', '-').equalsIgnoreCase(name.strip())) {
          return v;
        }
      }
      return CONTEXT_SPLIT;
    }
  }

  /** The variant of this process: {@code -Dprism.embedText=raw|context|context-split|signature}. */
  public static final Variant VARIANT =
      Variant.parse(System.getProperty("prism.embedText", "context-split"));

  /** Split and original text both are embedded only while the whole stays within this size. */
  static final int BOTH_MAX_CHARS = 1200;

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");
  private static final Pattern WORD_BOUNDARY = Pattern.compile(
      "(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_$]+");

  private EmbedText() {}

  /** The text embedded for {@code chunk} of the file at repository-relative {@code path}. */
  public static String of(String path, Chunk chunk) {
    return of(path, chunk, VARIANT);
  }

  static String of(String path, Chunk chunk, Variant variant) {
    if (variant == Variant.RAW) {
      return chunk.text();
    }
    StringBuilder header = new StringBuilder("path: ").append(path);
    if (chunk.parent() != null) {
      header.append("\nin: ").append(words(chunk.parent()));
    }
    Chunk.Symbol primary = chunk.primary();
    if (primary != null) {
      header.append("\nsymbol: ").append(words(primary.name()));
      if (chunk.hasHeader()) {
        List<String> lines = chunk.text().lines().toList();
        int index = primary.line() - chunk.startLine();
        if (index >= 0 && index < lines.size() && !lines.get(index).isBlank()) {
          header.append("\nsignature: ").append(lines.get(index).strip());
        }
      }
    }
    switch (variant) {
      case SIGNATURE:
        return header.toString();
      case CONTEXT:
        return header.append('\n').append(chunk.text()).toString();
      default:
        String split = splitIdentifiers(chunk.text());
        header.append('\n').append(split);
        if (!split.equals(chunk.text())
            && header.length() + 1 + chunk.text().length() <= BOTH_MAX_CHARS) {
          header.append('\n').append(chunk.text());
        }
        return header.toString();
    }
  }

  /** {@code name} split into lower-case words ({@code JoinHandle<T>} becomes {@code join handle t}). */
  static String words(String name) {
    List<String> out = new ArrayList<>();
    Matcher m = IDENTIFIER.matcher(name);
    while (m.find()) {
      for (String w : WORD_BOUNDARY.split(m.group())) {
        if (!w.isEmpty()) {
          out.add(w.toLowerCase(Locale.ROOT));
        }
      }
    }
    return out.isEmpty() ? name : String.join(" ", out);
  }

  /** {@code text} with every identifier of two words or more replaced by its lower-case words. */
  static String splitIdentifiers(String text) {
    Matcher m = IDENTIFIER.matcher(text);
    StringBuilder out = new StringBuilder(text.length() + 64);
    int last = 0;
    while (m.find()) {
      String id = m.group();
      String[] parts = WORD_BOUNDARY.split(id);
      int nonEmpty = 0;
      for (String p : parts) {
        nonEmpty += p.isEmpty() ? 0 : 1;
      }
      if (nonEmpty < 2) {
        continue;
      }
      out.append(text, last, m.start());
      boolean first = true;
      for (String p : parts) {
        if (!p.isEmpty()) {
          if (!first) {
            out.append(' ');
          }
          out.append(p.toLowerCase(Locale.ROOT));
          first = false;
        }
      }
      last = m.end();
    }
    return out.append(text, last, text.length()).toString();
  }
}
