package dev.tailor.predictor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.json.JsonFields;
import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

/**
 * A trained predictor of sequential time: a gradient-boosted regression forest over {@link
 * QueryFeatures}, with what it was trained on and how well it did on queries it did not see.
 *
 * <p>The model learns {@value #TARGET}: times spread over two orders of magnitude, and on a log
 * scale an error means the same factor for a short request as for a long one.
 *
 * <p>A versioned JSON envelope ({@value #FORMAT}, version {@value #VERSION}): the feature set's
 * version and names, the training inputs (the profile's name and SHA-256, the index's documents,
 * the seed, the held-out share, XGBoost's parameters, the long threshold), the held-out metrics,
 * and the booster as XGBoost saved it (UBJSON, base64). {@link #write} is atomic; {@link #read}
 * validates and names the file, the field and the problem, and refuses a model whose features are
 * not exactly this Tailor's, so a model never runs on a different feature set. Reading decodes the
 * booster in Java ({@link Ubjson}) and checks its trees ({@link Forest}), which are then evaluated
 * in Java; the bytes never reach XGBoost's native parser, which a corrupt booster crashes.
 * Immutable and thread-safe.
 */
public final class PredictorModel {

  /** The value of {@code format} in every model file. */
  public static final String FORMAT = "tailor-predictor-model";

  /** The version this code reads and writes. */
  public static final int VERSION = 1;

  /** What the forest predicts. */
  public static final String TARGET = "ln(sequentialNanos)";

  /** The format XGBoost saves the booster in, inside the envelope. */
  static final String BOOSTER_FORMAT = "ubj";

  /**
   * XGBoost's parameters: those a training run chooses; the objective ({@code reg:squarederror})
   * and the tree method ({@code hist}) are fixed.
   *
   * @param rounds boosting rounds, one tree each
   * @param maxDepth the deepest a tree grows
   * @param eta the learning rate
   * @param subsample the share of rows each tree is grown on
   * @param colsampleByTree the share of features each tree may split on
   * @param minChildWeight the least hessian (here: rows) in a leaf
   * @param lambda L2 regularization of leaf weights
   */
  public record Params(
      int rounds,
      int maxDepth,
      double eta,
      double subsample,
      double colsampleByTree,
      double minChildWeight,
      double lambda) {

    /**
     * 100 rounds of depth-5 trees at learning rate 0.15, on 80% of rows and features each: on the
     * demo's two profiles as accurate under 5-fold cross-validation as 300 rounds at 0.05, at a
     * third of the cost per prediction (the forest is most of a prediction's time).
     */
    public static Params defaults() {
      return new Params(100, 5, 0.15, 0.8, 0.8, 2, 1);
    }

    /** Checks the parameters. */
    public Params {
      if (rounds < 1
          || maxDepth < 1
          || !(eta > 0 && eta <= 1)
          || !(subsample > 0 && subsample <= 1)
          || !(colsampleByTree > 0 && colsampleByTree <= 1)
          || !(minChildWeight >= 0)
          || !(lambda >= 0)) {
        throw new IllegalArgumentException(
            "need rounds >= 1, max depth >= 1, eta, subsample and colsample in (0, 1],"
                + " min child weight >= 0, lambda >= 0");
      }
    }

    /** XGBoost's parameter map for a run with this seed, on one thread for repeatability. */
    Map<String, Object> xgboost(long seed) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("objective", "reg:squarederror");
      p.put("tree_method", "hist");
      p.put("max_depth", maxDepth);
      p.put("eta", eta);
      p.put("subsample", subsample);
      p.put("colsample_bytree", colsampleByTree);
      p.put("min_child_weight", minChildWeight);
      p.put("lambda", lambda);
      p.put("seed", seed);
      p.put("nthread", 1);
      p.put("verbosity", 0);
      return p;
    }
  }

  /**
   * What a model was trained on.
   *
   * @param profile the demand profile's file name
   * @param profileDigest its SHA-256 ({@code sha256:...})
   * @param index the index features were computed on
   * @param indexDocs the index's documents
   * @param trace the trace the queries were parsed from
   * @param queries the profile's requests matched to trace queries (training and held out)
   * @param seed chooses the held-out queries and seeds XGBoost
   * @param holdout the share of queries held out
   * @param params XGBoost's parameters
   * @param longThresholdNanos the slowest 5% of the training queries take at least this long: the
   *     long class the metrics report on
   */
  public record Training(
      String profile,
      String profileDigest,
      String index,
      long indexDocs,
      String trace,
      int queries,
      long seed,
      double holdout,
      Params params,
      long longThresholdNanos) {}

  private final String featureSet;
  private final List<String> featureNames;
  private final Training training;
  private final Metrics heldOut;
  private final String trainedAt;
  private final byte[] booster;
  private final Forest forest;

  private PredictorModel(
      String featureSet,
      List<String> featureNames,
      Training training,
      Metrics heldOut,
      String trainedAt,
      byte[] booster,
      Forest forest) {
    this.featureSet = featureSet;
    this.featureNames = List.copyOf(featureNames);
    this.training = training;
    this.heldOut = heldOut;
    this.trainedAt = trainedAt;
    this.booster = booster;
    this.forest = forest;
  }

  /**
   * A model of this Tailor's features from a trained booster. The forest is read from the bytes
   * that will be saved, as {@link #read} reads them, so that a model predicts the same before and
   * after a round trip through its file.
   *
   * @param heldOut metrics on the held-out queries, or null if none were held out
   * @throws IOException if XGBoost cannot save the booster or its trees are not supported
   */
  static PredictorModel of(Training training, Metrics heldOut, String trainedAt, Booster booster)
      throws IOException {
    byte[] ubj;
    try {
      ubj = booster.toByteArray(BOOSTER_FORMAT);
    } catch (XGBoostError e) {
      throw new IOException("XGBoost cannot save the booster: " + e.getMessage(), e);
    }
    try {
      return new PredictorModel(
          QueryFeatures.VERSION,
          QueryFeatures.NAMES,
          training,
          heldOut,
          trainedAt,
          ubj,
          Forest.parse(Ubjson.read(ubj)));
    } catch (IllegalArgumentException e) {
      throw new IOException("the trained booster's trees are not supported: " + e.getMessage(), e);
    }
  }

  /** The feature set's version the model was trained on ({@link QueryFeatures#VERSION}). */
  public String featureSet() {
    return featureSet;
  }

  /** The features' names, in the order the forest reads them. */
  public List<String> featureNames() {
    return featureNames;
  }

  /** What the model was trained on. */
  public Training training() {
    return training;
  }

  /** How it did on the held-out queries, or null if none were held out. */
  public Metrics heldOut() {
    return heldOut;
  }

  /** When it was trained, ISO-8601. */
  public String trainedAt() {
    return trainedAt;
  }

  /** Names the model by when and from what it was trained, for logs. */
  @Override
  public String toString() {
    return "the model trained at "
        + trainedAt
        + " on "
        + training.profile()
        + " ("
        + training.profileDigest()
        + ")";
  }

  /** The number of trees. */
  public int trees() {
    return forest.trees();
  }

  /** The booster as XGBoost saved it (UBJSON); a copy. */
  public byte[] boosterBytes() {
    return booster.clone();
  }

  /**
   * Loads the booster into XGBoost, for comparing XGBoost's own predictions (and their cost) with
   * the Java forest's. The caller disposes it. Only here do the model's bytes reach XGBoost's
   * native parser, and only after {@link #read} has decoded and checked them in Java.
   */
  public Booster loadBooster() throws IOException {
    try {
      return XGBoost.loadModel(booster);
    } catch (XGBoostError e) {
      throw new IOException("XGBoost cannot load the booster: " + e.getMessage(), e);
    }
  }

  /** The forest's raw output, {@value #TARGET}, for a feature vector. Allocates nothing. */
  public float predictLog(float[] features) {
    return forest.predict(features);
  }

  /** The predicted sequential time in nanoseconds for a feature vector, at least 1. */
  public long predictNanos(float[] features) {
    return Math.max(1, Math.round(Math.exp(forest.predict(features))));
  }

  /** Writes the model as JSON, atomically and durably. */
  public void write(Path file) throws IOException {
    ObjectNode root = JsonFile.mapper().createObjectNode();
    root.put("format", FORMAT);
    root.put("version", VERSION);
    root.put("target", TARGET);
    root.put("featureSet", featureSet);
    ArrayNode names = root.putArray("featureNames");
    featureNames.forEach(names::add);
    root.set("training", JsonFile.mapper().valueToTree(training));
    if (heldOut != null) {
      ObjectNode m = JsonFile.mapper().valueToTree(heldOut);
      m.put("recall", heldOut.recall());
      m.put("precision", heldOut.precision());
      root.set("heldOut", m);
    }
    root.put("trainedAt", trainedAt);
    ObjectNode b = root.putObject("booster");
    b.put("format", BOOSTER_FORMAT);
    b.put("trees", forest.trees());
    b.put("base64", Base64.getEncoder().encodeToString(booster));
    JsonFile.writeAtomically(file, root);
  }

  /**
   * Reads and validates a model.
   *
   * @throws IOException if the file cannot be read, is not JSON, is not a model of this Tailor's
   *     features, or its booster does not load; the message names the file, the field and what was
   *     expected
   */
  public static PredictorModel read(Path file) throws IOException {
    return new Reader(file).model(JsonFile.readTree(file));
  }

  /** Reads a model tree field by field, so that every problem names its field. */
  private static final class Reader {
    private final JsonFields fields;

    Reader(Path file) {
      this.fields = new JsonFields(file);
    }

    PredictorModel model(JsonNode root) throws IOException {
      fields.header(root, FORMAT, VERSION);
      String target = fields.text(root, "target", "");
      if (!TARGET.equals(target)) {
        throw fields.problem("target", "expected \"" + TARGET + "\", got \"" + target + "\"");
      }
      String featureSet = fields.text(root, "featureSet", "");
      if (!QueryFeatures.VERSION.equals(featureSet)) {
        throw fields.problem(
            "featureSet",
            "a model of features \""
                + featureSet
                + "\"; this Tailor computes \""
                + QueryFeatures.VERSION
                + "\": train it again");
      }
      List<String> names = names(root);
      JsonNode t = fields.object(root, "training", "");
      String at = "training.";
      JsonNode p = fields.object(t, "params", at);
      String pat = at + "params.";
      Params params;
      try {
        params =
            new Params(
                fields.smallInteger(p, "rounds", pat, 1),
                fields.smallInteger(p, "maxDepth", pat, 1),
                fields.number(p, "eta", pat),
                fields.number(p, "subsample", pat),
                fields.number(p, "colsampleByTree", pat),
                fields.number(p, "minChildWeight", pat),
                fields.number(p, "lambda", pat));
      } catch (IllegalArgumentException e) {
        throw fields.problem(at + "params", e.getMessage());
      }
      double holdout = fields.number(t, "holdout", at);
      if (!(holdout >= 0 && holdout < 1)) {
        throw fields.problem(at + "holdout", "must be in [0, 1), got " + holdout);
      }
      Training training =
          new Training(
              fields.text(t, "profile", at),
              fields.text(t, "profileDigest", at),
              fields.text(t, "index", at),
              fields.integer(t, "indexDocs", at, 0),
              fields.text(t, "trace", at),
              fields.smallInteger(t, "queries", at, 1),
              fields.integer(t, "seed", at, Long.MIN_VALUE),
              holdout,
              params,
              fields.integer(t, "longThresholdNanos", at, 1));
      Metrics heldOut = metrics(fields.optionalObject(root, "heldOut", ""), training);
      String trainedAt = fields.text(root, "trainedAt", "");
      JsonNode b = fields.object(root, "booster", "");
      String format = fields.text(b, "format", "booster.");
      if (!BOOSTER_FORMAT.equals(format)) {
        throw fields.problem(
            "booster.format", "expected \"" + BOOSTER_FORMAT + "\", got \"" + format + "\"");
      }
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(fields.text(b, "base64", "booster."));
      } catch (IllegalArgumentException e) {
        throw fields.problem("booster.base64", "not base64: " + e.getMessage());
      }
      Forest forest;
      try {
        forest = Forest.parse(Ubjson.read(bytes));
      } catch (IOException | IllegalArgumentException e) {
        throw fields.problem(
            "booster.base64", "not an XGBoost model this Tailor reads: " + e.getMessage());
      }
      int trees = fields.smallInteger(b, "trees", "booster.", 1);
      if (trees != forest.trees()) {
        throw fields.problem(
            "booster.trees", "the booster holds " + forest.trees() + " trees, not " + trees);
      }
      if (forest.features() != names.size()) {
        throw fields.problem(
            "booster",
            "the booster reads "
                + forest.features()
                + " features, featureNames lists "
                + names.size());
      }
      return new PredictorModel(featureSet, names, training, heldOut, trainedAt, bytes, forest);
    }

    private List<String> names(JsonNode root) throws IOException {
      JsonNode list = fields.array(root, "featureNames", "");
      List<String> names = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        JsonNode n = list.get(i);
        if (!n.isTextual()) {
          throw fields.problem("featureNames[" + i + "]", "expected a string");
        }
        names.add(n.textValue());
      }
      if (!names.equals(QueryFeatures.NAMES)) {
        throw fields.problem("featureNames", mismatch(names));
      }
      return names;
    }

    /** Says where the model's feature names first differ from this Tailor's. */
    private static String mismatch(List<String> names) {
      List<String> ours = QueryFeatures.NAMES;
      for (int i = 0; i < Math.min(names.size(), ours.size()); i++) {
        if (!Objects.equals(names.get(i), ours.get(i))) {
          return "feature "
              + i
              + " is \""
              + names.get(i)
              + "\", this Tailor computes \""
              + ours.get(i)
              + "\" there: the model was trained on other features; train it again";
        }
      }
      return names.size()
          + " features, this Tailor computes "
          + ours.size()
          + ": the model was trained on other features; train it again";
    }

    /**
     * The held-out metrics: counts within the queries held out (themselves within the training's
     * queries), true positives within both long counts, a correlation in [-1, 1] or not a number.
     */
    private Metrics metrics(JsonNode m, Training training) throws IOException {
      if (m == null) {
        return null;
      }
      String at = "heldOut.";
      int queries = fields.smallInteger(m, "queries", at, 1);
      if (queries > training.queries()) {
        throw fields.problem(
            at + "queries",
            queries + " held out of the " + training.queries() + " training.queries");
      }
      int actualLong = count(m, "actualLong", queries, "heldOut.queries");
      int predictedLong = count(m, "predictedLong", queries, "heldOut.queries");
      int truePositives =
          count(
              m,
              "truePositives",
              Math.min(actualLong, predictedLong),
              "heldOut.actualLong and heldOut.predictedLong");
      return new Metrics(
          queries,
          fields.nonNegative(m, "l1Millis", at),
          correlation(m),
          fields.integer(m, "longThresholdNanos", at, 1),
          actualLong,
          predictedLong,
          truePositives);
    }

    private int count(JsonNode m, String field, int most, String bound) throws IOException {
      int n = fields.smallInteger(m, field, "heldOut.", 0);
      if (n > most) {
        throw fields.problem(
            "heldOut." + field, "must be <= " + most + " (" + bound + "), got " + n);
      }
      return n;
    }

    /** A correlation in [-1, 1], or NaN written as such (or absent) when it was undefined. */
    private double correlation(JsonNode m) throws IOException {
      JsonNode v = m.get("logCorrelation");
      if (v == null || v.isNull() || (v.isTextual() && "NaN".equals(v.textValue()))) {
        return Double.NaN;
      }
      if (v.isNumber() && Double.isNaN(v.doubleValue())) {
        return Double.NaN;
      }
      double c = fields.number(m, "logCorrelation", "heldOut.");
      if (c < -1 || c > 1) {
        throw fields.problem("heldOut.logCorrelation", "must be in [-1, 1], got " + c);
      }
      return c;
    }
  }
}
