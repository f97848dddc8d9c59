package dev.tailor.fuzz;

import static dev.tailor.fuzz.FuzzFiles.readOrReject;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tailor.predictor.PredictorModel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Fuzzes the predictor model reader, {@link PredictorModel#read}, under {@link FuzzFiles}'s
 * contract: the JSON envelope and, inside it, the booster. A model that reads then predicts rows of
 * the kinds it meets online (all missing, all zero, huge, negative), which must not fail: {@code
 * ModelPredictor} swaps in whatever {@code read} accepts and predicts with it on every search.
 *
 * <p>Seeds: {@code ModelFuzzTestInputs/predictorModel/}, a small model trained for these tests.
 * {@code BoosterFuzzTest} fuzzes the booster's bytes alone, which reach it here only through
 * base64.
 */
class ModelFuzzTest {

  @FuzzTest
  void predictorModel(byte[] data) {
    Path file = FuzzFiles.write("model", ".json", data);
    PredictorModel model = readOrReject(file, PredictorModel::read);
    if (model == null) {
      return;
    }
    float[] row = new float[model.featureNames().size()];
    for (float v : new float[] {Float.NaN, 0, -1, Float.MAX_VALUE, Float.NEGATIVE_INFINITY}) {
      Arrays.fill(row, v);
      model.predictNanos(row);
    }
    model.toString();
  }
}
