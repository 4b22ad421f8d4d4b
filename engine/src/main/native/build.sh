#!/usr/bin/env bash
# Builds libprism-native.so, the engine's JNI library for linux-x86_64: the tree-sitter runtime, the
# seven grammars the chunker parses and prism_tree_sitter.c (internal.chunk.NativeDefinitions); the
# official BLAKE3 C implementation and prism_blake3.c (internal.pipeline.Hashing); prism_grams.c (the
# n-grams of an ASCII file, internal.analysis.GramSet). All with -O2.
#
#   build.sh OUTPUT_DIR WORK_DIR [DOWNLOAD_DIR]
#
# Why: the tree-sitter binding's own native libraries (io.github.bonede) are built without
# optimisation (-O0); chunking spent about 40 % of a cold lexical index there (docs/engine.md,
# "Parsing"); and BLAKE3 in Java (commons-codec) is about 19x slower than the C implementation,
# which picks SSE2, SSE4.1, AVX2 or AVX-512 code at run time by CPUID (docs/engine.md, "Hashing");
# the n-grams of a file, a few percent of a cold lexical index in Java, cost a fraction of that in C
# (docs/engine.md, "Exact literal search").
# The sources are npm releases, pinned by sha256: tree-sitter's and those of the same grammar
# versions as the binding's jars; BLAKE3 1.3.1's C sources from @c4312/blake3-native (its c/
# directory: upstream's C code plus WebAssembly-only changes). They are downloaded into DOWNLOAD_DIR
# (default WORK_DIR/downloads; a download that verifies is used again). Needs curl, tar, gcc and
# JAVA_HOME (for jni.h). Run by Maven (engine/pom.xml, profile native-linux-x86_64);
# -Dprism.native.skip=true skips it: the chunker then uses the binding, and hashing commons-codec.
set -euo pipefail
out_dir=$1
work=$2
downloads=${3:-$2/downloads}
here=$(cd "$(dirname "$0")" && pwd)
lib="$out_dir/libprism-native.so"

# package@version|sha256 of its npm tarball
SOURCES=(
  "tree-sitter@0.25.1|07aeba8dd71630e7e72b2d4ca3bd2680c3471824100cc5ebff44e78a6ed0b6d3"
  "tree-sitter-java@0.23.5|6b6c1b62605f9d8bb80efd2ebe5951a87b182faafa3eeb67c460a667818551b6"
  "tree-sitter-python@0.25.0|63b76b3fa8181fd79eaad4abcdb21e2babcb504dbfc7710a89934fa456d26096"
  "tree-sitter-typescript@0.23.2|0fdf63c35930a75885145d75ee63cb879da2d49db9bfe454bd8e60b08ba778a1"
  "tree-sitter-javascript@0.25.0|6214ce23d03aba525ba8edd6ca7caf365c969f2c2dbfc353e376ca54507ffb92"
  "tree-sitter-go@0.25.0|f7265544d6b297797dc3675c02b76fb182c177ce29fda10ac1f36e9ab33fd90e"
  "tree-sitter-rust@0.24.0|4248da0b9ea40fec13ef010822e7b92a9d1ebdf74f6f2733539b1dbbb086c5bb"
  "@c4312/blake3-native@3.0.0|6e8162da74155b86efadcef1b2c617d6dc42f06676e841281867e33143a1937e"
)

# Up to date when newer than this script and every file of its own beside it.
up_to_date=true
for own in "$0" "$here"/*.c "$here"/*.LICENSE; do
  [[ -f "$lib" && "$lib" -nt "$own" ]] || up_to_date=false
done
if $up_to_date; then
  exit 0
fi
: "${JAVA_HOME:?JAVA_HOME must name the JDK whose jni.h to compile against}"
mkdir -p "$out_dir" "$work" "$downloads"

for entry in "${SOURCES[@]}"; do
  spec=${entry%%|*}
  sha=${entry##*|}
  name=${spec%@*}
  version=${spec##*@}
  base=${name##*/}   # a scoped package's tarball is named without its scope
  tgz="$downloads/$base-$version.tgz"
  if ! echo "$sha  $tgz" | sha256sum -c --status 2>/dev/null; then
    curl -fsSL --retry 3 -o "$tgz.part" "https://registry.npmjs.org/$name/-/$base-$version.tgz"
    mv "$tgz.part" "$tgz"
    echo "$sha  $tgz" | sha256sum -c --status || { echo "build.sh: $tgz: sha256 mismatch" >&2; exit 1; }
  fi
  rm -rf "$work/src/$base"
  mkdir -p "$work/src/$base"
  tar -xzf "$tgz" -C "$work/src/$base" --strip-components=1
done

src="$work/src"
runtime="$src/tree-sitter/vendor/tree-sitter/lib"
blake3="$src/blake3-native/c"
# No debug information and no assertions (an assertion would abort the JVM); paths mapped so the
# library is the same bytes wherever it is built.
flags=(-O2 -g0 -DNDEBUG -fPIC -fvisibility=hidden -std=c11 -D_POSIX_C_SOURCE=200112L
  -D_DEFAULT_SOURCE "-ffile-prefix-map=$work=." "-ffile-prefix-map=$here=." "-ffile-prefix-map=$downloads=.")
units=(
  "runtime|$runtime/src/lib.c|-I$runtime/src -I$runtime/include"
  "glue|$here/prism_tree_sitter.c|-I$runtime/include -I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
  "blake3-glue|$here/prism_blake3.c|-I$blake3 -I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
  "grams|$here/prism_grams.c|-I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
  # BLAKE3 as its README builds it from the intrinsics sources: each SIMD unit with its own
  # instruction set only; blake3_dispatch.c calls one of them after checking CPUID, so the library
  # runs on any x86-64.
  "blake3|$blake3/blake3.c|"
  "blake3-dispatch|$blake3/blake3_dispatch.c|"
  "blake3-portable|$blake3/blake3_portable.c|"
  "blake3-sse2|$blake3/blake3_sse2.c|-msse2"
  "blake3-sse41|$blake3/blake3_sse41.c|-msse4.1"
  "blake3-avx2|$blake3/blake3_avx2.c|-mavx2"
  "blake3-avx512|$blake3/blake3_avx512.c|-mavx512f -mavx512vl"
)
for grammar in java python typescript/typescript typescript/tsx javascript go rust; do
  dir="$src/tree-sitter-${grammar%%/*}"
  [[ $grammar == */* ]] && dir="$src/tree-sitter-typescript/${grammar##*/}"
  tag=${grammar##*/}
  units+=("$tag-parser|$dir/src/parser.c|-I$dir/src")
  [[ -f "$dir/src/scanner.c" ]] && units+=("$tag-scanner|$dir/src/scanner.c|-I$dir/src")
done

objects=()
pids=()
for unit in "${units[@]}"; do
  IFS='|' read -r tag file includes <<<"$unit"
  # shellcheck disable=SC2086
  gcc "${flags[@]}" $includes -c "$file" -o "$work/$tag.o" &
  pids+=($!)
  objects+=("$work/$tag.o")
  if (( ${#pids[@]} >= 2 )); then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid"
done
# The licences of the sources compiled in, carried next to the library: the MIT licences of
# tree-sitter and the grammars from their tarballs; BLAKE3's (CC0 1.0 or Apache 2.0) from beside
# this script, since its npm tarball has no licence file.
mkdir -p "$out_dir/licenses"
for entry in "${SOURCES[@]}"; do
  spec=${entry%%|*}
  name=${spec%@*}
  if [[ $name == @c4312/blake3-native ]]; then
    cp "$here/blake3-1.3.1.LICENSE" "$out_dir/licenses/blake3-1.3.1.LICENSE"
  else
    cp "$src/$name/LICENSE" "$out_dir/licenses/${spec/@/-}.LICENSE"
  fi
done
# -z nodelete: the library is never unloaded while a thread still holds its arena (whose exit
# destructor is in it; prism_tree_sitter.c).
gcc -shared -g0 -Wl,--build-id=none -Wl,-z,nodelete -o "$lib.part" "${objects[@]}" -lpthread
mv "$lib.part" "$lib"
