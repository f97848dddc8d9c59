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
  // Four ints per node, all trees in one array, so that a node is one cache line's read: the split
  // feature shifted left by one with the default-left bit below it (-1 for a leaf), the split
  // condition's (or the leaf value's) float bits, the left child's and the right child's index.
  private final int[] nodes;

  private Forest(float baseScore, int features, int[] roots, int[] nodes) {
    this.baseScore = baseScore;
    this.features = features;
    this.roots = roots;
    this.nodes = nodes;
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
    int[] packed = new int[4 * nodes];
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
      roots[t] = 4 * at;
      for (int i = 0; i < l.size(); i++) {
        int node = 4 * (at + i);
        int left = l.get(i).asInt();
        JsonNode dl = d.get(i);
        boolean defaultLeft = dl.isBoolean() ? dl.booleanValue() : dl.asInt() != 0;
        packed[node] = left < 0 ? -1 : (f.get(i).asInt() << 1) | (defaultLeft ? 1 : 0);
        packed[node + 1] = Float.floatToRawIntBits((float) s.get(i).asDouble());
        packed[node + 2] = left < 0 ? -1 : 4 * (at + left);
        packed[node + 3] = left < 0 ? -1 : 4 * (at + r.get(i).asInt());
      }
      at += l.size();
    }
    return new Forest(
        baseScore(param.path("base_score").asText()),
        param.path("num_feature").asInt(),
        roots,
        packed);
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
    int[] nodes = this.nodes;
    float sum = baseScore;
    for (int n : roots) {
      int split;
      while ((split = nodes[n]) >= 0) {
        float v = row[split >>> 1];
        float condition = Float.intBitsToFloat(nodes[n + 1]);
        if (v < condition) {
          n = nodes[n + 2];
        } else if (v >= condition) {
          n = nodes[n + 3];
        } else { // missing
          n = (split & 1) != 0 ? nodes[n + 2] : nodes[n + 3];
        }
      }
      sum += Float.intBitsToFloat(nodes[n + 1]);
    }
    return sum;
  }
}
