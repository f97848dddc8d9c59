package dev.tailor.tables;

import dev.tailor.core.table.Digests;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a TPC target table is built from, as given on a command line: the arrival rates it is tuned
 * over, and the profile and model files it records.
 */
public final class TpcTableInputs {

  private TpcTableInputs() {}

  /**
   * The arrival rates {@code LOW..HIGH}, as {@code points} evenly spaced rates, or a
   * comma-separated list.
   *
   * @throws IllegalArgumentException naming {@code --rps} if the text is neither
   */
  public static List<Double> rates(String text, int points) {
    List<Double> out = new ArrayList<>();
    try {
      int dots = text.indexOf("..");
      if (dots >= 0) {
        double low = Double.parseDouble(text.substring(0, dots).trim());
        double high = Double.parseDouble(text.substring(dots + 2).trim());
        if (!(low > 0) || high < low || points < 1) {
          throw new IllegalArgumentException(
              "--rps: expected 0 < LOW <= HIGH and --points >= 1, got " + text);
        }
        for (int i = 0; i < points; i++) {
          out.add(points == 1 ? low : low + (high - low) * i / (points - 1));
        }
        return out;
      }
      for (String part : text.split(",")) {
        out.add(Double.parseDouble(part.trim()));
      }
      return out;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--rps: expected LOW..HIGH or a comma-separated list of rates, got " + text, e);
    }
  }

  /**
   * The table's record of its sources: the profile file and its digest, and the model whose
   * predictions {@code demand} carries. Unless {@code known} (the true times are the predictions),
   * a {@code model} given must be the one that made them.
   *
   * @param profile the profile file {@code demand} was read from
   * @param model the model file, or null to take the digest the predictions record
   * @throws IOException naming both if the predictions were not made by {@code model}
   */
  public static TpcTableBuilder.Sources sources(
      Path profile, DemandProfile demand, Path model, boolean known) throws IOException {
    DemandProfile.Predictions p = demand.predictions();
    String digest;
    if (model == null) {
      digest = known || p == null ? null : p.modelDigest();
    } else {
      digest = Digests.sha256(model);
      if (!known && (p == null || !digest.equals(p.modelDigest()))) {
        throw new IOException(
            profile
                + ": predictions: "
                + (p == null ? "none" : "made by " + p.modelDigest())
                + ", not by "
                + model
                + " ("
                + digest
                + "); attach them first with tailor predictor predict --model "
                + model);
      }
    }
    return new TpcTableBuilder.Sources(
        profile.toString(),
        Digests.sha256(profile),
        model == null ? null : model.toString(),
        digest);
  }
}
