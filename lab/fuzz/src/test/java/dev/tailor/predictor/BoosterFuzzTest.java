package dev.tailor.predictor;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Arrays;

/**
 * Fuzzes what a model file's booster goes through, without the envelope around it: {@link
 * Ubjson#read} and then {@link Forest#parse}. The contract: the decoder returns a tree or throws an
 * {@link IOException} saying at which byte what is wrong; the forest parses or throws an {@link
 * IllegalArgumentException} naming the tree, node and field; a forest that parses predicts any row
 * without failing (no index out of bounds, no endless walk). {@code PredictorModel.read} turns both
 * errors into one that names the file and {@code booster.base64}.
 *
 * <p>In the package it tests, because both classes are package-private. Seeds: {@code
 * BoosterFuzzTestInputs/ubjson/}, the booster of a small model trained for these tests, and the
 * truncated booster that crashed XGBoost's native parser.
 */
class BoosterFuzzTest {

  @FuzzTest
  void ubjson(byte[] data) {
    JsonNode tree;
    try {
      tree = Ubjson.read(data);
    } catch (IOException e) {
      if (e.getMessage() == null || !e.getMessage().startsWith("UBJSON byte ")) {
        throw new AssertionError("a decoding error that does not say where", e);
      }
      return;
    }
    Forest forest;
    try {
      forest = Forest.parse(tree);
    } catch (IllegalArgumentException e) {
      return;
    }
    float[] row = new float[forest.features()];
    for (float v : new float[] {Float.NaN, 0, Float.MAX_VALUE, -Float.MAX_VALUE}) {
      Arrays.fill(row, v);
      forest.predict(row);
    }
  }
}
