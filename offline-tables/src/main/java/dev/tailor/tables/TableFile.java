package dev.tailor.tables;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tailor.core.json.JsonFile;
import dev.tailor.core.table.Digests;
import dev.tailor.core.table.IntervalTable;
import dev.tailor.core.table.TargetTable;
import dev.tailor.core.table.ThresholdTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * A table file of any kind, read by the reader its {@code kind} names: a TPC target table, a
 * tail-control threshold table, or otherwise a Few-to-Many interval table, whose reader names what
 * is wrong with a file that is none of them.
 *
 * @param kind the table's kind ({@link TargetTable#KIND}, {@link ThresholdTable#KIND} or {@link
 *     IntervalTable#KIND})
 * @param rows its rows
 * @param builtAt when it was built
 * @param sourceDigest the SHA-256 of the profile it was built from, or the description of a
 *     generated workload's
 */
public record TableFile(String kind, int rows, String builtAt, String sourceDigest) {

  /**
   * Reads and validates a table file.
   *
   * @throws IOException naming the file and the field if it is not a valid table
   */
  public static TableFile read(Path file) throws IOException {
    return switch (kind(file)) {
      case TargetTable.KIND -> {
        TargetTable t = TargetTable.read(file);
        yield new TableFile(
            TargetTable.KIND, t.rows().size(), t.builtAt(), t.inputs().profileDigest());
      }
      case ThresholdTable.KIND -> {
        ThresholdTable t = ThresholdTable.read(file);
        ThresholdTable.Inputs in = t.inputs();
        yield new TableFile(
            ThresholdTable.KIND,
            t.rows().size(),
            t.builtAt(),
            in.sourceDigest() != null ? in.sourceDigest() : in.source());
      }
      default -> {
        IntervalTable t = IntervalTable.read(file);
        yield new TableFile(
            IntervalTable.KIND, t.rows().size(), t.builtAt(), t.inputs().profileDigest());
      }
    };
  }

  /**
   * Checks that the table was built from {@code profile} as it is now.
   *
   * @throws IOException naming {@code file} and both digests if it was not
   */
  public void checkBuiltFrom(Path file, Path profile) throws IOException {
    String digest = Digests.sha256(profile);
    if (!digest.equals(sourceDigest)) {
      throw new IOException(
          file
              + ": inputs.profileDigest: built from "
              + sourceDigest
              + ", but "
              + profile
              + " is "
              + digest);
    }
  }

  /** Prints the table file's inputs and rows ({@link TableText}), after its name. */
  public static void print(Path file, PrintWriter out) throws IOException {
    out.printf("%s%n", file);
    switch (kind(file)) {
      case TargetTable.KIND -> TableText.print(TargetTable.read(file), out);
      case ThresholdTable.KIND -> TableText.print(ThresholdTable.read(file), out);
      default -> TableText.print(IntervalTable.read(file), out);
    }
  }

  /** The kind a table file says it is ({@code tpc-target}, {@code tc-threshold}, ...), or empty. */
  private static String kind(Path file) throws IOException {
    JsonNode root = JsonFile.readTree(file);
    return root.isObject() ? root.path("kind").asText() : "";
  }
}
