package dev.tailor.predictor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import ml.dmlc.xgboost4j.java.Booster;
import org.junit.jupiter.api.Test;

class UbjsonTest {

  /** Builds UBJSON by hand: each argument a marker character or a byte value. */
  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object p : parts) {
      if (p instanceof Character c) {
        out.write(c);
      } else if (p instanceof String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
      } else {
        out.write((Integer) p);
      }
    }
    return out.toByteArray();
  }

  private static JsonNode json(String text) throws IOException {
    return JsonFile.mapper().readTree(text);
  }

  @Test
  void decodesScalarsStringsAndContainersOfEveryForm() throws IOException {
    // {"a": [1, -2, 300, true, null, "hé"], "b": [$d#2 1.5 -0.25], "c": {#1 "k": 7}}
    byte[] in =
        bytes(
            '{', 'i', 1, "a", '[', 'U', 1, 'i', 0xfe, 'I', 0x01, 0x2c, 'T', 'Z', 'N', 'S', 'i', 3,
            "h", 0xc3, 0xa9, ']', 'i', 1, "b", '[', '$', 'd', '#', 'i', 2, 0x3f, 0xc0, 0, 0, 0xbe,
            0x80, 0, 0, 'i', 1, "c", '{', '#', 'i', 1, 'i', 1, "k", 'L', 0, 0, 0, 0, 0, 0, 0, 7,
            '}');
    // As text: the tree's number nodes are as wide as the UBJSON types (float, long), not as
    // JSON's.
    assertEquals(
        json("{\"a\":[1,-2,300,true,null,\"hé\"],\"b\":[1.5,-0.25],\"c\":{\"k\":7}}").toString(),
        Ubjson.read(in).toString());
  }

  /** A booster trained on {@code rows} synthetic rows, saved in {@code formats}. */
  private static byte[][] saved(int rows, PredictorModel.Params params, String... formats)
      throws Exception {
    Booster booster =
        Trainer.fit(
            Synthetic.data(rows, 3).data(),
            java.util.stream.IntStream.range(0, rows).toArray(),
            params,
            1,
            new int[0]);
    try {
      byte[][] out = new byte[formats.length][];
      for (int i = 0; i < formats.length; i++) {
        out[i] = booster.toByteArray(formats[i]);
      }
      return out;
    } finally {
      booster.dispose();
    }
  }

  @Test
  void decodesWhatXgboostSavesToTheSameTreeAsItsJson() throws Exception {
    byte[][] saved = saved(60, Synthetic.options().params(), "ubj", "json");
    JsonNode fromUbj = Ubjson.read(saved[0]);
    JsonNode fromJson = JsonFile.mapper().readTree(saved[1]);
    // Same trees, node for node (JSON's floats read as doubles: compare their float values).
    JsonNode a = fromUbj.path("learner").path("gradient_booster").path("model").path("trees");
    JsonNode b = fromJson.path("learner").path("gradient_booster").path("model").path("trees");
    assertEquals(b.size(), a.size());
    for (int t = 0; t < a.size(); t++) {
      for (String field : new String[] {"left_children", "right_children", "split_indices"}) {
        assertEquals(b.get(t).get(field), a.get(t).get(field), "tree " + t + " " + field);
      }
      for (int i = 0; i < a.get(t).get("split_conditions").size(); i++) {
        assertEquals(
            b.get(t).get("split_conditions").get(i).floatValue(),
            a.get(t).get("split_conditions").get(i).floatValue());
      }
    }
  }

  @Test
  void everyTruncationOfASavedBoosterIsAnErrorSayingWhere() throws Exception {
    byte[] ubj = saved(30, new PredictorModel.Params(2, 2, 0.3, 1, 1, 1, 1), "ubj")[0];
    Ubjson.read(ubj);
    for (int n = 0; n < ubj.length; n++) {
      byte[] cut = Arrays.copyOf(ubj, n);
      IOException e = assertThrows(IOException.class, () -> Ubjson.read(cut), "length " + n);
      assertTrue(e.getMessage().startsWith("UBJSON byte "), e.getMessage());
    }
  }

  @Test
  void aDeclaredSizeBeyondTheDataIsRefusedBeforeAllocating() {
    byte[] hugeArray = bytes('[', '$', 'D', '#', 'L', 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0);
    assertProblem(hugeArray, "a count of");
    byte[] hugeString = bytes('S', 'l', 0x7f, 0xff, 0xff, 0xff, 'a');
    assertProblem(hugeString, "a string of 2147483647 bytes, 1 left");
    assertProblem(bytes('S', 'i', 0xff), "a negative length");
  }

  @Test
  void malformedInputIsRefusedWithWhatIsWrong() {
    assertProblem(bytes("[".repeat(100)), "nested deeper than 64");
    assertProblem(bytes('Z', 'Z'), "trailing bytes");
    assertProblem(bytes('S', 'i', 2, 0xc3, 0x28), "not UTF-8");
    assertProblem(bytes('['), "the data ends early");
    assertProblem(bytes('q'), "unknown marker 0x71");
    assertProblem(bytes('[', '$', 'S', '#', 'i', 1), "not a number");
    assertProblem(bytes('[', '$', 'i', 'i', 1), "a typed container without a count");
    assertProblem(bytes('H', 'i', 3, "1e+"), "not a number: 1e+");
  }

  private static void assertProblem(byte[] in, String what) {
    IOException e = assertThrows(IOException.class, () -> Ubjson.read(in));
    assertTrue(e.getMessage().startsWith("UBJSON byte "), e.getMessage());
    assertTrue(e.getMessage().contains(what), e.getMessage());
  }
}
