package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.table.Digests;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.sim.model.LogNormalProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TablesBuildTcCommandTest {

  @Test
  void buildsFromAProfileRecordingItsDigestAndShowsAndValidatesTheTable(@TempDir Path tmp)
      throws Exception {
    Path profile = tmp.resolve("p.json");
    LogNormalProfile.generate(LogNormalProfile.Shape.parse("10ms,13ms"), 2_000, 4, 1)
        .write(profile);
    Path table = tmp.resolve("tc.json");
    Cli build = new Cli();
    assertEquals(
        0,
        build.run(
            "tables",
            "build",
            "tc",
            "--profile",
            profile.toString(),
            "--cores",
            "16",
            "--rps",
            "1200",
            "--target",
            "20ms",
            "--out",
            table.toString()),
        build.err());
    assertTrue(build.out().contains("tc-threshold table built"), build.out());
    assertTrue(build.out().contains("and more"), build.out());
    ThresholdTable t = ThresholdTable.read(table);
    assertEquals(Digests.sha256(profile), t.inputs().sourceDigest());
    assertEquals(20_000_000L, t.inputs().targetNanos());
    assertEquals(64, t.inputs().qMax());
    assertTrue(t.thresholdNanos(64) < t.thresholdNanos(1), "lower under load");

    Cli show = new Cli();
    assertEquals(0, show.run("tables", "show", table.toString()), show.err());
    assertTrue(show.out().contains("active requests"), show.out());
    Cli validate = new Cli();
    assertEquals(
        0,
        validate.run("tables", "validate", table.toString(), "--profile", profile.toString()),
        validate.err());
    assertTrue(validate.out().contains("valid tc-threshold table, 64 rows"), validate.out());

    Path other = tmp.resolve("other.json");
    LogNormalProfile.generate(LogNormalProfile.Shape.parse("10ms,13ms"), 2_000, 4, 2).write(other);
    Cli mismatch = new Cli();
    assertEquals(
        1, mismatch.run("tables", "validate", table.toString(), "--profile", other.toString()));
    assertTrue(mismatch.err().contains("inputs.profileDigest"), mismatch.err());
  }

  @Test
  void buildsFromAGeneratedWorkloadAndRefusesAnOverloadNamingTheFigures(@TempDir Path tmp) {
    Path table = tmp.resolve("tc.json");
    Cli ok = new Cli();
    assertEquals(
        0,
        ok.run(
            "tables",
            "build",
            "tc",
            "--lognormal",
            "10ms,17ms",
            "--requests",
            "5000",
            "--rps",
            "1000",
            "--target",
            "28ms",
            "--q-max",
            "10",
            "--out",
            table.toString()),
        ok.err());
    assertTrue(ok.out().contains("log-normal mean 10ms sd 17ms"), ok.out());

    Cli overloaded = new Cli();
    Path none = tmp.resolve("none.json");
    assertEquals(
        2,
        overloaded.run(
            "tables",
            "build",
            "tc",
            "--lognormal",
            "10ms,13ms",
            "--requests",
            "5000",
            "--rps",
            "2000",
            "--target",
            "28ms",
            "--out",
            none.toString()));
    assertTrue(overloaded.err().contains("the system is overloaded"), overloaded.err());
    assertFalse(Files.exists(none), "nothing written");

    Cli badShape = new Cli();
    assertEquals(
        2,
        badShape.run(
            "tables",
            "build",
            "tc",
            "--lognormal",
            "10ms",
            "--rps",
            "1000",
            "--target",
            "28ms",
            "--out",
            none.toString()));
    assertTrue(badShape.err().contains("--lognormal: expected MEAN,SD"), badShape.err());
  }
}
