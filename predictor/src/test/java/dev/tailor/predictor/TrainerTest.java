package dev.tailor.predictor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainerTest {

  @TempDir Path dir;

  @Test
  void learnsATimeThatIsAFunctionOfOneFeature() throws IOException {
    ProfileData data = Synthetic.data(400, 1);
    Trainer.Result r = Trainer.train(data, Synthetic.options(), true);
    assertEquals(80, r.heldOutRows().length);
    assertEquals(320, r.trainRows().length);
    assertTrue(r.heldOut().logCorrelation() > 0.95, r.heldOut().describe());
    // Without the family holding the one feature that matters, the model knows nothing.
    Trainer.Ablation noDocFreq =
        r.ablation().stream()
            .filter(a -> a.dropped() == QueryFeatures.Family.DOC_FREQ)
            .findFirst()
            .orElseThrow();
    assertTrue(
        Math.abs(noDocFreq.heldOut().logCorrelation()) < 0.5, noDocFreq.heldOut().describe());
    assertEquals(QueryFeatures.Family.values().length, r.ablation().size());
  }

  @Test
  void longThresholdIsTheSlowestFivePercentOfTraining() {
    long[] nanos = LongStreamOf.range(1, 101);
    assertEquals(96, Trainer.longThreshold(nanos));
  }

  @Test
  void splitIsSeededDisjointAndComplete() {
    int[][] a = Trainer.split(100, 0.2, 3);
    int[][] b = Trainer.split(100, 0.2, 3);
    assertArrayEquals(a[1], b[1]);
    assertEquals(20, a[1].length);
    int[] all = IntStream.concat(Arrays.stream(a[0]), Arrays.stream(a[1])).sorted().toArray();
    assertArrayEquals(IntStream.range(0, 100).toArray(), all);
    assertTrue(!Arrays.equals(a[1], Trainer.split(100, 0.2, 4)[1]));
  }

  @Test
  void javaForestEqualsXgboostsOwnPredictions() throws Exception {
    ProfileData data = Synthetic.data(300, 2);
    PredictorModel model = Trainer.train(data, Synthetic.options(), false).model();
    Dataset test = Synthetic.data(200, 99).data(); // rows the model never saw
    float[] matrix = test.matrix(IntStream.range(0, test.size()).toArray(), new int[] {0, 5});
    Booster booster = model.loadBooster();
    DMatrix m = new DMatrix(matrix, test.size(), QueryFeatures.count(), Float.NaN);
    float[][] xgb = booster.predict(m);
    m.dispose();
    booster.dispose();
    int n = QueryFeatures.count();
    for (int i = 0; i < test.size(); i++) {
      float[] row = Arrays.copyOfRange(matrix, i * n, (i + 1) * n); // with missing values
      assertEquals(xgb[i][0], model.predictLog(row), 1e-5f, "row " + i);
    }
  }

  @Test
  void modelRoundTripsThroughItsFile() throws IOException {
    ProfileData data = Synthetic.data(200, 3);
    PredictorModel model = Trainer.train(data, Synthetic.options(), false).model();
    Path file = dir.resolve("model.json");
    model.write(file);
    PredictorModel read = PredictorModel.read(file);
    assertEquals(model.featureNames(), read.featureNames());
    assertEquals(model.featureSet(), read.featureSet());
    assertEquals(model.training(), read.training());
    assertEquals(model.heldOut(), read.heldOut());
    assertEquals(model.trainedAt(), read.trainedAt());
    assertArrayEquals(model.boosterBytes(), read.boosterBytes());
    for (int i = 0; i < data.data().size(); i++) {
      assertEquals(
          model.predictLog(data.data().features(i)), read.predictLog(data.data().features(i)));
    }
    assertNotNull(read.heldOut());
  }

  @Test
  void readNamesTheFieldOfABadModel() throws IOException {
    ProfileData data = Synthetic.data(100, 4);
    Path file = dir.resolve("model.json");
    Trainer.train(data, Synthetic.options(), false).model().write(file);
    String json = Files.readString(file);

    Files.writeString(file, json.replace("\"docFreq.max\"", "\"docFreq.median\""));
    IOException names = assertThrows(IOException.class, () -> PredictorModel.read(file));
    assertTrue(names.getMessage().contains("featureNames"), names.getMessage());
    assertTrue(names.getMessage().contains(file.toString()), names.getMessage());

    Files.writeString(file, json.replace(PredictorModel.FORMAT, "tailor-table"));
    IOException format = assertThrows(IOException.class, () -> PredictorModel.read(file));
    assertTrue(format.getMessage().contains("format"), format.getMessage());

    Files.writeString(file, json.replaceAll("\"base64\" : \"[^\"]{20}", "\"base64\" : \"AAAA"));
    IOException booster = assertThrows(IOException.class, () -> PredictorModel.read(file));
    assertTrue(booster.getMessage().contains("booster.base64"), booster.getMessage());
  }

  @Test
  void crossFitPredictsEveryRequestWithAModelThatDidNotSeeIt() throws IOException {
    Dataset d = Synthetic.data(200, 5).data();
    long[] predicted = Trainer.crossFit(d, Synthetic.options().params(), 1, 4);
    long[] actual = new long[d.size()];
    for (int i = 0; i < d.size(); i++) {
      actual[i] = d.nanos(i);
      assertTrue(predicted[i] > 0);
    }
    Metrics m = Metrics.of(actual, predicted, Trainer.longThreshold(actual));
    assertTrue(m.logCorrelation() > 0.9, m.describe());
    assertThrows(
        IllegalArgumentException.class,
        () -> Trainer.crossFit(d, Synthetic.options().params(), 1, 1));
  }

  @Test
  void agreementOfAProfileWithItselfIsPerfect() throws IOException {
    ProfileData data = Synthetic.data(100, 6);
    int[] rows = IntStream.range(0, 100).toArray();
    Metrics m =
        Trainer.agreement(
            data,
            data.profile(),
            data.profileFile(),
            rows,
            Trainer.longThreshold(data.data().nanos(rows)));
    assertEquals(0, m.l1Millis());
    assertEquals(1, m.recall());
    assertEquals(1, m.precision());
  }

  /** Longs from..to-1. */
  private static final class LongStreamOf {
    static long[] range(long from, long to) {
      return java.util.stream.LongStream.range(from, to).toArray();
    }
  }
}
