package dev.tailor.predictor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ForestTest {

  /** One tree: feature 1 below 0.5 goes left (leaf 1.0, and missing too), else right (2.0). */
  private static final String TREE =
      "{\"left_children\":[1,-1,-1],\"right_children\":[2,-1,-1],\"split_indices\":[1,0,0],"
          + "\"split_conditions\":[0.5,1.0,2.0],\"default_left\":[1,0,0],\"split_type\":[0,0,0]}";

  private static Forest forest(String tree, String numFeature, String baseScore)
      throws IOException {
    return Forest.parse(
        JsonFile.mapper()
            .readTree(
                "{\"learner\":{\"objective\":{\"name\":\"reg:squarederror\"},"
                    + "\"learner_model_param\":{\"num_feature\":\""
                    + numFeature
                    + "\",\"base_score\":\""
                    + baseScore
                    + "\",\"num_target\":\"1\",\"num_class\":\"0\"},"
                    + "\"gradient_booster\":{\"name\":\"gbtree\",\"model\":{\"trees\":["
                    + tree
                    + "]}}}}"));
  }

  @Test
  void predictsByWalkingEachTreeFromTheBaseScore() throws IOException {
    Forest f = forest(TREE, "2", "[5E-1]");
    assertEquals(2, f.features());
    assertEquals(1, f.trees());
    assertEquals(1.5f, f.predict(new float[] {9, 0}));
    assertEquals(2.5f, f.predict(new float[] {9, 1}));
    assertEquals(1.5f, f.predict(new float[] {9, Float.NaN}), "missing goes the default way");
  }

  @Test
  void aTreeThatCouldLoopOrReadOutsideItselfIsRefused() {
    assertRefused(TREE.replace("\"left_children\":[1,", "\"left_children\":[0,"), "has child 0");
    assertRefused(TREE.replace("\"right_children\":[2,", "\"right_children\":[7,"), "below 3");
    assertRefused(
        TREE.replace("\"right_children\":[2,", "\"right_children\":[1,"), "an unvisited node");
    assertRefused(
        TREE.replace("\"right_children\":[2,-1,-1]", "\"right_children\":[2,2,-1]")
            .replace("\"left_children\":[1,-1,-1]", "\"left_children\":[1,2,-1]"),
        "tree 0 node 1 has child 2");
    assertRefused(TREE.replace("\"split_indices\":[1,", "\"split_indices\":[2,"), "feature 2");
    assertRefused(TREE.replace("\"split_indices\":[1,", "\"split_indices\":[-1,"), "feature -1");
  }

  @Test
  void malformedFieldsAreRefusedNamingThem() throws IOException {
    assertRefused(TREE.replace("2.0]", "1e39]"), "node 2 split_conditions: expected a finite");
    assertRefused(TREE.replace("\"default_left\":[1,0,0]", "\"default_left\":[1]"), "expected 3");
    assertRefused(TREE.replace("\"left_children\":[1,", "\"left_children\":[\"x\","), "whole");
    assertRefused(TREE.replace("\"split_type\":[0,0,0]", "\"split_type\":[1,0,0]"), "categ");
    assertRefused("{}", "tree 0 left_children: expected an array");
    assertRefused(TREE.replaceAll("\\[[-0-9.,]*\\]", "[]"), "tree 0 has no node");
    IllegalArgumentException base =
        assertThrows(IllegalArgumentException.class, () -> forest(TREE, "2", "NaN"));
    assertTrue(base.getMessage().contains("base_score"), base.getMessage());
    IllegalArgumentException features =
        assertThrows(IllegalArgumentException.class, () -> forest(TREE, "many", "0"));
    assertTrue(features.getMessage().contains("num_feature"), features.getMessage());
  }

  private static void assertRefused(String tree, String what) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> forest(tree, "2", "0.5"));
    assertTrue(e.getMessage().contains(what), e.getMessage());
  }
}
