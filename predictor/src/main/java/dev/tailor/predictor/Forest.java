package dev.tailor.predictor;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A regression forest trained by XGBoost, evaluated in Java: the online path. XGBoost4J's own
 * predict crosses JNI and, for {@code predict}, builds a native matrix per call; walking a few
 * hundred small trees in Java costs a microsecond or two and allocates nothing.
 *
 * <p>Read from XGBoost's model as a tree (its JSON, or its UBJSON decoded in Java by {@link
 * Ubjson}), which holds every tree as parallel arrays and the base score; supports what the trainer
 * produces, {@code gbtree} with numeric splits and one target under {@code reg:squarederror}, and
 * refuses anything else. A node sends a row left when its value is below the split condition, and a
 * missing value ({@code NaN}) the node's default way, as XGBoost does; the sum starts at the base
 * score and adds each tree's leaf in tree order in single precision, as XGBoost's CPU predictor
 * does, so the two agree to rounding.
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
   * Reads XGBoost's model as a tree: its JSON ({@code Booster.toByteArray("json")}) or its UBJSON
   * decoded by {@link Ubjson}, which hold the same fields.
   *
   * <p>Checks everything {@link #predict} relies on, so that a forest that parses predicts any row
   * of {@link #features()} values without failing or looping: each tree's arrays are as long as
   * each other, every inner node's children lie in its tree and each is reached once from the root
   * (no cycle, no shared node), every split reads a feature below {@code num_feature}, and every
   * split condition, leaf value and the base score is finite.
   *
   * @throws IllegalArgumentException if the model is not a single-target numeric-split gbtree
   *     regression, or is malformed; the message names the tree, the node and the field
   */
  static Forest parse(JsonNode model) {
    JsonNode learner = model.path("learner");
    String objective = learner.path("objective").path("name").asText();
    if (!"reg:squarederror".equals(objective)) {
      throw new IllegalArgumentException("objective " + objective + ", expected reg:squarederror");
    }
    JsonNode param = learner.path("learner_model_param");
    if (param.path("num_target").asInt(1) != 1 || param.path("num_class").asInt(0) > 1) {
      throw new IllegalArgumentException("a model with more than one target or class");
    }
    int features = wholeNumber(param.path("num_feature"), "learner_model_param.num_feature");
    if (features < 1) {
      throw new IllegalArgumentException("num_feature must be >= 1, got " + features);
    }
    float baseScore = baseScore(param.path("base_score").asText());
    JsonNode booster = learner.path("gradient_booster");
    if (!"gbtree".equals(booster.path("name").asText())) {
      throw new IllegalArgumentException(
          "booster " + booster.path("name").asText() + ", expected gbtree");
    }
    JsonNode trees = booster.path("model").path("trees");
    if (!trees.isArray() || trees.isEmpty()) {
      throw new IllegalArgumentException("expected a non-empty array of trees");
    }
    long nodes = 0;
    for (JsonNode t : trees) {
      nodes += t.path("left_children").size();
    }
    if (nodes > Integer.MAX_VALUE / 4) {
      throw new IllegalArgumentException(nodes + " nodes, more than a forest packs");
    }
    int[] roots = new int[trees.size()];
    int[] packed = new int[4 * (int) nodes];
    int at = 0;
    for (int t = 0; t < trees.size(); t++) {
      at = tree(trees.get(t), t, features, at, packed, roots);
    }
    return new Forest(baseScore, features, roots, packed);
  }

  /** Packs tree {@code t} from node {@code at} on, and returns the node after its last. */
  private static int tree(JsonNode tree, int t, int features, int at, int[] packed, int[] roots) {
    String where = "tree " + t;
    JsonNode l = array(tree, "left_children", where);
    int n = l.size();
    if (n == 0) {
      throw new IllegalArgumentException(where + " has no node");
    }
    JsonNode r = array(tree, "right_children", where, n);
    JsonNode f = array(tree, "split_indices", where, n);
    JsonNode s = array(tree, "split_conditions", where, n);
    JsonNode d = array(tree, "default_left", where, n);
    JsonNode types = tree.path("split_type");
    for (int i = 0; i < types.size(); i++) {
      if (types.get(i).asInt() != 0) {
        throw new IllegalArgumentException(where + " has a categorical split at node " + i);
      }
    }
    boolean[] reached = new boolean[n];
    reached[0] = true;
    roots[t] = 4 * at;
    // XGBoost numbers a node's children after the node, so one pass in order visits every node
    // after whoever points at it; a node pointed at twice, or before its parent, is refused.
    for (int i = 0; i < n; i++) {
      String node = where + " node " + i;
      int left = wholeNumber(l.get(i), node + " left_children");
      int right = wholeNumber(r.get(i), node + " right_children");
      int packedAt = 4 * (at + i);
      if (!reached[i]) {
        // Unreachable (XGBoost keeps pruned nodes): never read, packed as a leaf.
        packed[packedAt] = -1;
        continue;
      }
      float value = (float) s.get(i).asDouble();
      if (!s.get(i).isNumber() || !Float.isFinite(value)) {
        throw new IllegalArgumentException(node + " split_conditions: expected a finite number");
      }
      packed[packedAt + 1] = Float.floatToRawIntBits(value);
      if (left == -1 && right == -1) {
        packed[packedAt] = -1;
        packed[packedAt + 2] = -1;
        packed[packedAt + 3] = -1;
        continue;
      }
      for (int child : new int[] {left, right}) {
        if (child <= i || child >= n || reached[child]) {
          throw new IllegalArgumentException(
              node + " has child " + child + ": expected an unvisited node after it, below " + n);
        }
        reached[child] = true;
      }
      if (left == right) {
        throw new IllegalArgumentException(node + " has the same child on both sides");
      }
      int feature = wholeNumber(f.get(i), node + " split_indices");
      if (feature < 0 || feature >= features) {
        throw new IllegalArgumentException(
            node + " splits on feature " + feature + ", the model has " + features);
      }
      JsonNode dl = d.get(i);
      boolean defaultLeft = dl.isBoolean() ? dl.booleanValue() : dl.asInt() != 0;
      packed[packedAt] = (feature << 1) | (defaultLeft ? 1 : 0);
      packed[packedAt + 2] = 4 * (at + left);
      packed[packedAt + 3] = 4 * (at + right);
    }
    return at + n;
  }

  private static JsonNode array(JsonNode tree, String field, String where) {
    JsonNode a = tree.path(field);
    if (!a.isArray()) {
      throw new IllegalArgumentException(where + " " + field + ": expected an array");
    }
    return a;
  }

  private static JsonNode array(JsonNode tree, String field, String where, int n) {
    JsonNode a = array(tree, field, where);
    if (a.size() != n) {
      throw new IllegalArgumentException(
          where + " " + field + ": expected " + n + " values (one per node), got " + a.size());
    }
    return a;
  }

  /** A whole number that fits an int, given as a number or as text (XGBoost's parameters). */
  private static int wholeNumber(JsonNode v, String what) {
    if (v.isIntegralNumber() && v.canConvertToInt()) {
      return v.intValue();
    }
    if (v.isTextual()) {
      try {
        return Integer.parseInt(v.textValue().strip());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new IllegalArgumentException(what + ": expected a whole number, got " + v);
  }

  /**
   * XGBoost writes the base score as {@code "5.2E0"}, or as a one-element vector {@code "[5.2E0]"}.
   */
  private static float baseScore(String text) {
    String s = text.strip();
    if (s.startsWith("[") && s.endsWith("]")) {
      s = s.substring(1, s.length() - 1).strip();
    }
    try {
      float score = Float.parseFloat(s);
      if (Float.isFinite(score)) {
        return score;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "base_score: expected a finite number, got \"" + text + "\"");
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
