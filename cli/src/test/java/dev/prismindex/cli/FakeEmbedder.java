package dev.prismindex.cli;

import dev.prismindex.embed.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic stand-in for the embedding model in in-process tests: each lower-cased word (and
 * each part of a camelCase word) adds to one of {@value #DIMENSION} buckets; the vector is
 * L2-normalised. Texts sharing words are close, so semantic and hybrid answers are meaningful, and
 * no ONNX model is loaded. The end-to-end tests use the real model.
 */
class FakeEmbedder implements Embedder {

  static final int DIMENSION = 64;

  int calls;

  @Override
  public String id() {
    return "fake-bag-of-words-64";
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  @Override
  public synchronized List<float[]> embed(List<String> texts) {
    calls++;
    List<float[]> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      out.add(vector(text));
    }
    return out;
  }

  static float[] vector(String text) {
    float[] v = new float[DIMENSION];
    String spaced = text.replaceAll("([a-z])([A-Z])", "$1 $2");
    for (String word : spaced.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
      if (word.length() > 1) {
        v[Math.floorMod(word.hashCode(), DIMENSION)] += 1f;
      }
    }
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    if (norm == 0) {
      v[0] = 1f;
      return v;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }
}
