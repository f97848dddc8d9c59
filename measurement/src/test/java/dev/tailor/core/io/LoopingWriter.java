package dev.tailor.core.io;

import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer that {@link KilledWriterTest} kills: replaces one file with two valid versions of a
 * table or a profile in turn, through their real writers, and after each completed write prints its
 * number on a line of its own. Write {@code n} (from 1) is version {@code n % 2}.
 *
 * <p>Usage: {@code LoopingWriter table|profile FILE WARMUP}. It first writes both versions to the
 * scratch file {@code WARMUP} and deletes it, so that the kills land in writes of a warm JVM, then
 * waits for a line on its standard input before it writes {@code FILE}. It runs until it is killed,
 * or until its standard input or output is closed (its parent is gone), so that a test that dies
 * leaves no writer behind.
 */
final class LoopingWriter {

  /** What is written: a version, by number, to a file. */
  enum Kind {
    /** A tail-control {@link ThresholdTable} with many rows. */
    TABLE {
      @Override
      Version version(int version) {
        return table(version)::write;
      }
    },
    /** A {@link DemandProfile} with many requests. */
    PROFILE {
      @Override
      Version version(int version) {
        return profile(version)::write;
      }
    };

    /** Version 0 or 1, built, ready to be written through its real writer. */
    abstract Version version(int version);

    /** Writes {@code version} (0 or 1) to {@code file} through the real writer. */
    void write(int version, Path file) throws IOException {
      version(version).writeTo(file);
    }
  }

  /** A table or profile ready to be written. */
  @FunctionalInterface
  interface Version {
    /** Writes it to {@code file} through its real writer. */
    void writeTo(Path file) throws IOException;
  }

  private static final long MS = 1_000_000L;

  /** Rows of a table: enough that its JSON takes many buffers, and a kill lands mid-write. */
  private static final int ROWS = 2_000;

  /** Requests of a profile, likewise. */
  private static final int REQUESTS = 400;

  private LoopingWriter() {}

  /**
   * Writes until killed.
   *
   * @param args {@code table} or {@code profile}, the file, the scratch file
   */
  public static void main(String[] args) throws IOException {
    Kind kind = Kind.valueOf(args[0].toUpperCase(java.util.Locale.ROOT));
    Path file = Path.of(args[1]);
    Path warmup = Path.of(args[2]);
    // Built once, so that a kill lands in the writer rather than in building what it writes.
    Version[] versions = {kind.version(0), kind.version(1)};
    for (Version v : versions) {
      v.writeTo(warmup);
    }
    Files.delete(warmup);
    if (System.in.read() < 0) {
      return;
    }
    for (long n = 1; !System.out.checkError(); n++) {
      versions[(int) (n % 2)].writeTo(file);
      System.out.println(n);
    }
  }

  /**
   * Version 0 or 1 of a threshold table: they differ in every threshold and in when they were
   * built.
   */
  static ThresholdTable table(int version) {
    ThresholdTable.Inputs in =
        new ThresholdTable.Inputs(
            "profile.json",
            "sha256:" + String.valueOf(version).repeat(64),
            10_000,
            ROWS,
            "exact",
            5 * MS,
            (20 + version) * MS,
            100,
            8,
            0.5,
            ROWS);
    List<ThresholdTable.Row> rows = new ArrayList<>(ROWS);
    for (int q = 1; q <= ROWS; q++) {
      rows.add(new ThresholdTable.Row(q, (version + 1) * 100 * MS / q, 0.25 * q + version));
    }
    return new ThresholdTable(in, rows, stamp(version), 0.01);
  }

  /** The instant a version says it was made at: tables refuse a time that is not ISO-8601. */
  static String stamp(int version) {
    return java.time.Instant.ofEpochSecond(1_700_000_000L + version).toString();
  }

  /** Version 0 or 1 of a demand profile: version 1 takes twice as long on every request. */
  static DemandProfile profile(int version) {
    List<DemandProfile.Request> requests = new ArrayList<>(REQUESTS);
    for (int i = 0; i < REQUESTS; i++) {
      long sequential = (i + 1) * 10_000L;
      requests.add(
          new DemandProfile.Request(
              "q" + i,
              "HighTerm",
              "term" + i,
              sequential,
              new long[] {sequential / 2, sequential / 2},
              new double[] {1.0, 1.8},
              new double[] {1.9, 2.0},
              new DemandProfile.Features("TermQuery", 1, new long[] {500 + i}, 500 + i),
              new DemandProfile.Spread(3, new double[] {0.04, 0.12})));
    }
    DemandProfile base =
        DemandProfile.of(
            new DemandProfile.Environment(
                "index", "synthetic", 1_000, "trace.txt", 2, "25", "linux", stamp(version)),
            new DemandProfile.Settings(
                DemandProfile.Settings.INTERLEAVED_ROUNDS, 5_000_000_000L, 3, 1_000_000, 8, 2, 4),
            true,
            null,
            requests);
    return version == 0 ? base : base.scaled(2);
  }
}
