package dev.tailor.predictor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * A regression forest trained by XGBoost, evaluated in Java: the online path. XGBoost4J's own
 * predict crosses JNI and, for {@code predict}, builds a native matrix per call; walking a few
 * hundred small trees in Java costs a microsecond or two and allocates nothing.
 *
 * <p>Read from XGBoost's JSON model ({@code Booster.toByteArray("json")}), which holds every tree
 * as parallel arrays and the base score; supports what the trainer produces, {@code gbtree} with
 * numeric splits and one target under {@code reg:squarederror}, and refuses anything else. A node
 * sends a row left when its value is below the split condition, and a missing value ({@code NaN})
 * the node's default way, as XGBoost does; the sum starts at the base score and adds each tree's
 * leaf in tree order in single precision, as XGBoost's CPU predictor does, so the two agree to
 * rounding.
 */
final class Forest {

  private final float baseScore;
  private final int features;
  private final int[] roots;
  // Per node, all trees' nodes in one array each; a leaf has left == -1 and its value in split.
  private final int[] feature;
  private final float[] split;
  private final int[] left;
  private final int[] right;
  private final boolean[] defaultLeft;

  private Forest(
      float baseScore,
      int features,
      int[] roots,
      int[] feature,
      float[] split,
      int[] left,
      int[] right,
      boolean[] defaultLeft) {
    this.baseScore = baseScore;
    this.features = features;
    this.roots = roots;
    this.feature = feature;
    this.split = split;
    this.left = left;
    this.right = right;
    this.defaultLeft = defaultLeft;
  }

  /**
   * Parses XGBoost's JSON model.
   *
   * @throws IllegalArgumentException if the model is not a single-target numeric-split gbtree
   *     regression, naming what is not supported
   */
  static Forest parse(byte[] json, ObjectMapper mapper) throws IOException {
    JsonNode learner = mapper.readTree(json).path("learner");
    String objective = learner.path("objective").path("name").asText();
    if (!"reg:squarederror".equals(objective)) {
      throw new IllegalArgumentException("objective " + objective + ", expected reg:squarederror");
    }
    JsonNode param = learner.path("learner_model_param");
    if (param.path("num_target").asInt(1) != 1 || param.path("num_class").asInt(0) > 1) {
      throw new IllegalArgumentException("a model with more than one target or class");
    }
    JsonNode booster = learner.path("gradient_booster");
    if (!"gbtree".equals(booster.path("name").asText())) {
      throw new IllegalArgumentException(
          "booster " + booster.path("name").asText() + ", expected gbtree");
    }
    JsonNode trees = booster.path("model").path("trees");
    int nodes = 0;
    for (JsonNode t : trees) {
      nodes += t.path("left_children").size();
    }
    int[] roots = new int[trees.size()];
    int[] feature = new int[nodes];
    float[] split = new float[nodes];
    int[] left = new int[nodes];
    int[] right = new int[nodes];
    boolean[] defaultLeft = new boolean[nodes];
    int at = 0;
    for (int t = 0; t < trees.size(); t++) {
      JsonNode tree = trees.get(t);
      for (JsonNode type : tree.path("split_type")) {
        if (type.asInt() != 0) {
          throw new IllegalArgumentException("tree " + t + " has a categorical split");
        }
      }
      JsonNode l = tree.path("left_children");
      JsonNode r = tree.path("right_children");
      JsonNode f = tree.path("split_indices");
      JsonNode s = tree.path("split_conditions");
      JsonNode d = tree.path("default_left");
      roots[t] = at;
      for (int i = 0; i < l.size(); i++) {
        int li = l.get(i).asInt();
        left[at + i] = li < 0 ? -1 : at + li;
        right[at + i] = li < 0 ? -1 : at + r.get(i).asInt();
        feature[at + i] = f.get(i).asInt();
        split[at + i] = (float) s.get(i).asDouble();
        JsonNode dl = d.get(i);
        defaultLeft[at + i] = dl.isBoolean() ? dl.booleanValue() : dl.asInt() != 0;
      }
      at += l.size();
    }
    return new Forest(
        baseScore(param.path("base_score").asText()),
        param.path("num_feature").asInt(),
        roots,
        feature,
        split,
        left,
        right,
        defaultLeft);
  }

  /**
   * XGBoost writes the base score as {@code "5.2E0"}, or as a one-element vector {@code "[5.2E0]"}.
   */
  private static float baseScore(String text) {
    String s = text.strip();
    if (s.startsWith("[") && s.endsWith("]")) {
      s = s.substring(1, s.length() - 1).strip();
    }
    return Float.parseFloat(s);
  }

  /** The number of features the forest was trained on. */
  int features() {
    return features;
  }

  /** The number of trees. */
  int trees() {
    return roots.length;
  }

  /** The forest's output for one row of features ({@code NaN} for missing). */
  float predict(float[] row) {
    float sum = baseScore;
    for (int root : roots) {
      int n = root;
      while (left[n] >= 0) {
        float v = row[feature[n]];
        if (Float.isNaN(v)) {
          n = defaultLeft[n] ? left[n] : right[n];
        } else {
          n = v < split[n] ? left[n] : right[n];
        }
      }
      sum += split[n];
    }
    return sum;
  }
}
