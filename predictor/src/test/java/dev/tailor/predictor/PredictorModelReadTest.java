package dev.tailor.predictor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link PredictorModel#read} refuses, each named by file and field. */
class PredictorModelReadTest {

  private static final Pattern BASE64 = Pattern.compile("\"base64\" : \"([^\"]*)\"");

  @TempDir static Path dir;
  static String good;

  @BeforeAll
  static void train() throws IOException {
    Path file = dir.resolve("good.json");
    Trainer.train(Synthetic.data(100, 4), Synthetic.options(), false).model().write(file);
    good = Files.readString(file);
  }

  @Test
  void aTruncatedBoosterIsAnErrorNotACrash() throws IOException {
    // The first 23 bytes of a saved booster made XGBoost's native parser read past its buffer and
    // kill the JVM; read decodes the booster in Java and never hands it to XGBoost.
    Matcher m = BASE64.matcher(good);
    assertTrue(m.find());
    byte[] booster = Base64.getDecoder().decode(m.group(1));
    for (int n : new int[] {0, 1, 23, booster.length / 2, booster.length - 1}) {
      byte[] cut = java.util.Arrays.copyOf(booster, n);
      assertProblem(
          good.replace(m.group(1), Base64.getEncoder().encodeToString(cut)),
          "booster.base64: not an XGBoost model this Tailor reads: UBJSON byte");
    }
  }

  @Test
  void theEnvelopesTreeCountMustMatchTheBooster() throws IOException {
    assertEquals(60, PredictorModel.read(write(good)).trees());
    assertProblem(good.replace("\"trees\" : 60", "\"trees\" : 61"), "booster.trees: the booster");
  }

  @Test
  void heldOutCountsStayWithinEachOther() throws IOException {
    String held = good.replaceFirst("\"heldOut\" : \\{", "\"heldOut\" : {\"x\" : 0,");
    assertTrue(good.contains("\"heldOut\""), "the model was trained with queries held out");
    assertProblem(
        replaceIn(held, "queries", "100000"), "heldOut.queries: 100000 held out of the 100");
    assertProblem(replaceIn(held, "truePositives", "999"), "heldOut.truePositives: must be <=");
    assertProblem(replaceIn(held, "actualLong", "-1"), "heldOut.actualLong: must be >= 0");
    assertProblem(replaceIn(held, "logCorrelation", "1.5"), "must be in [-1, 1], got 1.5");
    PredictorModel.read(write(replaceIn(held, "logCorrelation", "\"NaN\"")));
  }

  /** Replaces the value of {@code field} inside the heldOut object. */
  private static String replaceIn(String json, String field, String value) {
    int at = json.indexOf("\"heldOut\"");
    String head = json.substring(0, at);
    String tail =
        json.substring(at)
            .replaceFirst("\"" + field + "\" : [^,\\n]*", "\"" + field + "\" : " + value);
    return head + tail;
  }

  private static Path write(String json) throws IOException {
    Path file = dir.resolve("model.json");
    Files.writeString(file, json);
    return file;
  }

  private static void assertProblem(String json, String what) throws IOException {
    Path file = write(json);
    IOException e = assertThrows(IOException.class, () -> PredictorModel.read(file));
    assertTrue(e.getMessage().startsWith(file + ": "), e.getMessage());
    assertTrue(e.getMessage().contains(what), e.getMessage());
  }
}
