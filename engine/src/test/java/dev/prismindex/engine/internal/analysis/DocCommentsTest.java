package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The doc-comment text of a chunk, per language. */
class DocCommentsTest {

  @Test
  void javadocBlocksWithoutMarkersTagsOrHtml() {
    String java = """
        /**
         * Removes the entry for the key.
         * <p>Does nothing when {@code key} is absent.
         *
         * @param key the key to remove
         * @return the old value
         */
        public V remove(Object key) { // not a doc comment
          /* not a doc comment either */
          return map.remove(key);
        }
        /** One line. */ int x;
        """;
    assertThat(DocComments.extract(java, "java")).isEqualTo("""
        Removes the entry for the key.
        Does nothing when key is absent.
        key the key to remove
        the old value
        One line.""");
  }

  @Test
  void jsDocAndTypeScript() {
    String ts = """
        /** Parses a duration such as `5m`. */
        export function parseDuration(text: string): number {
          // a line comment
          return 0;
        }
        """;
    assertThat(DocComments.extract(ts, "typescript")).isEqualTo("Parses a duration such as `5m`.");
    assertThat(DocComments.extract(ts, "javascript")).isEqualTo("Parses a duration such as `5m`.");
    assertThat(DocComments.extract(ts, "tsx")).isEqualTo("Parses a duration such as `5m`.");
  }

  @Test
  void rustLineAndInnerDocsWithoutExamples() {
    String rust = """
        //! The cache module.
        /// Removes the entry for `key`.
        ///
        /// ```
        /// cache.remove("a");
        /// ```
        //// not a doc comment
        // nor this
        pub fn remove(&mut self, key: &str) {}
        /*! Inner block. */
        """;
    assertThat(DocComments.extract(rust, "rust")).isEqualTo("""
        Inner block.
        The cache module.
        Removes the entry for `key`.""");
  }

  @Test
  void goCommentsDirectlyAboveADeclaration() {
    String go = """
        // Package cache stores things.
        package cache

        // a detached comment

        // Remove deletes the entry
        // for key.
        func (c *Cache) Remove(key string) {
          // inside the body
        }
        """;
    assertThat(DocComments.extract(go, "go")).isEqualTo("""
        Package cache stores things.
        Remove deletes the entry
        for key.""");
  }

  @Test
  void pythonDocstringsAndCommentsAboveADefinition() {
    String py = """
        # Helpers for the cache.
        @cached
        def remove(self, key):
            \"\"\"Remove the entry for key.

            >>> remove("a")
            \"\"\"
            x = \"\"\"not a docstring\"\"\"
            # not above a definition
            return x

        class Cache(
                Base):
            r'''One line.'''
        """;
    assertThat(DocComments.extract(py, "python")).isEqualTo("""
        Remove the entry for key.
        One line.
        Helpers for the cache.""");
    assertThat(DocComments.extract("    \"\"\"A chunk that opens with its docstring.\"\"\"\n"
        + "    return 1", "python")).isEqualTo("A chunk that opens with its docstring.");
  }

  @Test
  void hashCommentsInRubyAndShell() {
    assertThat(DocComments.extract("# Removes the entry.\ndef remove(key)\nend\n# stray\n",
        "ruby")).isEqualTo("Removes the entry.");
    assertThat(DocComments.extract("#!/bin/sh\n# Cleans the build.\nclean() {\n  rm -rf b\n}\n",
        "shell")).isEqualTo("Cleans the build.");
  }

  @Test
  void tripleSlashInCSharpAndNothingElsewhere() {
    assertThat(DocComments.extract("/// <summary>Removes the entry.</summary>\nvoid Remove() {}",
        "csharp")).isEqualTo("Removes the entry.");
    assertThat(DocComments.extract("/// not for java\nvoid f() {}", "java")).isEmpty();
    assertThat(DocComments.extract("/** text */\n# heading", "markdown")).isEmpty();
    assertThat(DocComments.extract("", "java")).isEmpty();
  }

  @Test
  void unterminatedAndRandomInputNeverFails() {
    assertThat(DocComments.extract("/** open\n * more", "java")).isEqualTo("open\nmore");
    assertThat(DocComments.extract("def f():\n    \"\"\"open\n    more", "python"))
        .isEqualTo("open\nmore");
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String alphabet = "/*!#\"'`@{}<>:\n abcdefunc";
    for (int i = 0; i < 2000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int j = random.nextInt(200); j > 0; j--) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      for (String lang : new String[] {"java", "rust", "go", "python", "ruby", "shell", "csharp"}) {
        assertThat(DocComments.extract(sb.toString(), lang)).as("seed %d", seed).isNotNull();
      }
    }
  }
}
