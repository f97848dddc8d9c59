package dev.tailor.measure;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFields;
import java.io.IOException;

/**
 * The machine's speed just before a run: a fixed set of the trace's queries searched alone, on one
 * thread, with plain Lucene, each twice and its faster time kept, over their profiled times. On a
 * virtual machine the same search can take a quarter longer, or more, from one replay to the next
 * minutes later, with no steal or other process to account for it (a neighbour on the host sharing
 * its cache and memory bandwidth); the probe measures that drift where it matters, so that a
 * calibration can be carried from the moment it was measured to the moment of another run.
 *
 * <p>Two sets, because the drift is not one factor: short queries are dominated by fixed costs,
 * long ones by reading postings, and they move apart. The short set is recorded, but a calibration
 * is carried by the long set alone: the short set's few milliseconds read up to 1.8 times apart
 * between runs whose served median did not move.
 *
 * @param queries how many queries each set holds
 * @param shortRatio the set nearest the profile's median: their summed time over their summed
 *     profiled time
 * @param longRatio the profile's longest queries: likewise
 */
public record SpeedProbe(int queries, double shortRatio, double longRatio) {

  /** Checks the fields. */
  public SpeedProbe {
    if (queries < 1 || !(shortRatio > 0) || !(longRatio > 0)) {
      throw new IllegalArgumentException(
          "a speed probe needs queries >= 1 and positive ratios, got "
              + queries
              + ", "
              + shortRatio
              + ", "
              + longRatio);
    }
  }

  /**
   * Reads the probe at {@code node}, or null for none; {@code at} is its path, e.g. {@code
   * "probe."}, which every problem names.
   */
  public static SpeedProbe read(JsonFields fields, JsonNode node, String at) throws IOException {
    if (node == null) {
      return null;
    }
    int queries = fields.smallInteger(node, "queries", at, 1);
    double shortRatio = fields.number(node, "shortRatio", at);
    double longRatio = fields.number(node, "longRatio", at);
    if (!(shortRatio > 0) || !(longRatio > 0)) {
      throw fields.problem(
          at.isEmpty() ? "probe" : at.substring(0, at.length() - 1),
          "expected positive shortRatio and longRatio");
    }
    return new SpeedProbe(queries, shortRatio, longRatio);
  }
}
