package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.load.report.ReplayedTrace;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.WorkloadSpread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailor fidelity} on a real replay of a small index: every measured point is simulated with
 * the very arrivals the replay sent.
 */
class FidelityCommandTest {

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  @Test
  void simulatesEachMeasuredPointWithTheReplaysArrivals() throws IOException {
    Path corpus = tmp.resolve("corpus.txt");
    StringBuilder lines = new StringBuilder();
    String[] words = {"river", "delta", "sea", "lake", "town", "valley", "flood", "salt"};
    for (int i = 0; i < 400; i++) {
      lines.append("Doc ").append(i).append("\t\t");
      for (int w = 0; w < 12; w++) {
        lines.append(words[(i * 7 + w * 3) % words.length]).append(' ');
      }
      lines.append('\n');
    }
    Files.writeString(corpus, lines);
    Path index = tmp.resolve("index");
    Path trace = tmp.resolve("trace.tasks");
    Path profile = tmp.resolve("profile.json");
    Path report = tmp.resolve("report");
    assertEquals(
        0,
        cli.run(
            "index", "--corpus", corpus.toString(), "--out", index.toString(), "--segments", "2"),
        cli.err());
    assertEquals(
        0,
        cli.run(
            "trace",
            "gen",
            "--index",
            index.toString(),
            "--seed",
            "1",
            "--per-category",
            "1",
            "--out",
            trace.toString()),
        cli.err());
    assertEquals(
        0,
        cli.run(
            "profile",
            "--index",
            index.toString(),
            "--trace",
            trace.toString(),
            "--warmup",
            "0s",
            "--rounds",
            "1",
            "--cores",
            "2",
            "--out",
            profile.toString()),
        cli.err());
    assertEquals(
        0,
        cli.run(
            "replay",
            "--index",
            index.toString(),
            "--trace",
            trace.toString(),
            "--policies",
            "seq,fixed:2",
            "--rps",
            "40",
            "--duration",
            "1s",
            "--warmup",
            "200ms",
            "--target",
            "20ms",
            "--out",
            report.toString()),
        cli.err());

    assertTrue(cli.err().contains("(point 2 of 2, the last)"), cli.err());
    assertTrue(Files.exists(report.resolve(ReplayedTrace.FILE)), "the replay records its trace");
    // Replayed without --profile: the summary says the spread is unknown rather than invent one.
    assertTrue(
        Files.readString(report.resolve("summary.md"))
            .contains(
                " requests of unknown spread: no demand profile was given (replay --profile)"),
        Files.readString(report.resolve("summary.md")));

    assertEquals(
        0,
        cli.run(
            "fidelity",
            "--report",
            report.toString(),
            "--profile",
            profile.toString(),
            "--duration",
            "1s",
            "--warmup",
            "200ms",
            "--target",
            "20ms"),
        cli.err());

    String md = Files.readString(report.resolve("fidelity.md"));
    // The replay recorded misses at its --target: the table gives them simulated beside measured.
    assertTrue(md.contains("| misses at 20ms measured (%) | misses at 20ms fluid (%) |"), md);
    // The misses table's row for seq (the cell and rank tables that follow carry no misses).
    assertTrue(
        md.lines().filter(l -> l.startsWith("| seq | 40 |")).anyMatch(l -> l.contains(" pp |")),
        md);
    assertTrue(
        md.contains(
            "\nWorkload: profile profile.json, "
                + WorkloadSpread.of(DemandProfile.read(profile)).describe()
                + ".\n"),
        md);
    assertTrue(md.contains("| seq | 40 |"), md);
    assertTrue(md.contains("| fixed:2 | 40 |"), md);
    // One row per policy in the table of every run, and one per policy and work model in the
    // tables by cell, each judged against the 20% goal.
    assertEquals(2, md.lines().filter(l -> l.matches("\\| \\S+ \\| 40 \\|.* pp \\|")).count(), md);
    assertEquals(
        4,
        md.lines().filter(l -> l.matches("\\| \\S+ \\| 40 \\| 1 \\|.*\\| (yes|no) \\|")).count(),
        md);
    // Both sides counted the same requests: the arrivals and the warm-up cut were re-created. (Only
    // this warning: the profiler may warn of a busy machine, which says nothing about fidelity.)
    assertFalse(cli.err().contains("simulations counted other requests"), cli.err());
    assertTrue(cli.out().contains(md), cli.out());

    // A profile of another trace is refused, naming both traces.
    DemandProfile p = DemandProfile.read(profile);
    DemandProfile.Environment e = p.environment();
    Path otherTrace = tmp.resolve("other.tasks");
    Path otherProfile = tmp.resolve("other-profile.json");
    DemandProfile.of(
            new DemandProfile.Environment(
                e.index(),
                e.indexLabel(),
                e.indexDocs(),
                otherTrace.toString(),
                e.cores(),
                e.jvm(),
                e.os(),
                e.takenAt()),
            p.settings(),
            p.complete(),
            p.requests())
        .write(otherProfile);
    Cli refused = new Cli();
    assertNotEquals(
        0,
        refused.run(
            "fidelity",
            "--report",
            report.toString(),
            "--profile",
            otherProfile.toString(),
            "--duration",
            "1s",
            "--warmup",
            "200ms"));
    assertTrue(refused.err().contains("is of trace " + otherTrace), refused.err());
    assertTrue(refused.err().contains("replayed trace " + trace.toAbsolutePath()), refused.err());

    // With the replay's defaults instead of its 1 s points, the counts differ: one warning line.
    Cli defaults = new Cli();
    assertEquals(
        0,
        defaults.run("fidelity", "--report", report.toString(), "--profile", profile.toString()),
        defaults.err());
    assertEquals(1, defaults.err().lines().filter(l -> l.startsWith("warning:")).count());
    assertFalse(
        Files.readString(report.resolve("fidelity.md")).contains("misses at"),
        "no --target, no misses");

    // A target the replay did not record is said to be missing, not invented.
    Cli unrecorded = new Cli();
    assertEquals(
        0,
        unrecorded.run(
            "fidelity",
            "--report",
            report.toString(),
            "--profile",
            profile.toString(),
            "--duration",
            "1s",
            "--warmup",
            "200ms",
            "--target",
            "7ms"),
        unrecorded.err());
    assertTrue(
        unrecorded.err().contains("did not record misses at 7ms, so the table has none"),
        unrecorded.err());
    assertFalse(Files.readString(report.resolve("fidelity.md")).contains("misses at"));
  }

  @Test
  void aBadTargetIsRejectedNamingTheOption() {
    assertNotEquals(
        0, cli.run("fidelity", "--report", "r", "--profile", "p.json", "--target", "20"));
    assertTrue(cli.err().contains("option '--target'"), cli.err());
    assertTrue(cli.err().contains("'20' is not a duration"), cli.err());
  }

  @Test
  void aDirectoryWithoutPointsIsRejectedByName() throws IOException {
    Path empty = Files.createDirectories(tmp.resolve("not-a-report"));
    assertNotEquals(
        0, cli.run("fidelity", "--report", empty.toString(), "--profile", "unused.json"));
    assertTrue(cli.err().contains(empty.resolve("points") + ": not a directory"), cli.err());
  }
}
