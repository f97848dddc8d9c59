package dev.tailor.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.measure.DemandProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tailor predictor}: its subcommands and how they report bad input. */
class PredictorCommandTest {

  private static final DemandProfile.Features FEATURES =
      new DemandProfile.Features("TermQuery", 1, new long[] {1}, 1);

  @TempDir Path tmp;

  private final Cli cli = new Cli();

  @Test
  void helpListsTheSubcommands() {
    assertEquals(0, cli.run("predictor", "--help"));
    for (String sub : new String[] {"train", "predict", "show", "projection"}) {
      assertTrue(cli.out().contains(sub), cli.out());
    }
  }

  @Test
  void showOfABadModelNamesTheFileAndTheField() throws IOException {
    Path model = tmp.resolve("model.json");
    Files.writeString(model, "{\"format\": \"tailor-table\", \"version\": 1}");
    assertNotEquals(0, cli.run("predictor", "show", model.toString()));
    assertTrue(
        cli.err().startsWith("tailor predictor show: " + model + ": format: expected"), cli.err());
  }

  @Test
  void trainWithAMissingProfileSaysSo() {
    Path missing = tmp.resolve("nope.json");
    assertNotEquals(
        0,
        cli.run(
            "predictor",
            "train",
            "--profile",
            missing.toString(),
            "--out",
            tmp.resolve("m").toString()));
    assertTrue(cli.err().startsWith("tailor predictor train: "), cli.err());
    assertTrue(cli.err().contains(missing.toString()), cli.err());
  }

  @Test
  void badParametersAreRejectedBeforeAnyWork() {
    assertNotEquals(
        0,
        cli.run(
            "predictor",
            "train",
            "--profile",
            tmp.resolve("p.json").toString(),
            "--out",
            tmp.resolve("m").toString(),
            "--holdout",
            "1.5"));
    assertTrue(cli.err().contains("held-out share"), cli.err());
  }

  @Test
  void projectionPrintsItsTableOnAProfileWithUnitTimes() throws IOException {
    // 19 requests of 4 windows of 1 us, one of 4 windows of 10 us: the slowest 5% is that one.
    // After one window, half the median's 4 us and half the 30 us extrapolated are left of it:
    // projected 25 us, below its 40 us, so not flagged; L1 15 / 116, the median's 36 / 116.
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      requests.add(request("q" + i, i == 7 ? 10_000 : 1_000));
    }
    Path profile = tmp.resolve("p.json");
    profile(requests).write(profile);
    assertEquals(0, cli.run("predictor", "projection", "--profile", profile.toString()), cli.err());
    String out = cli.out();
    assertTrue(out.startsWith("projection on p.json: 20 requests, 4 windows each"), out);
    assertTrue(out.contains("the profile's median sequential time, 0.004 ms"), out);
    assertTrue(
        out.contains(
            "  1/16     0.00 (0/1)    - (0/0)       0.129       0.00 (0/1)    - (0/0)       0.310\n"),
        out);
  }

  @Test
  void projectionWithASecondProfilePrintsTheNoiseBoundOrNamesTheFirstMissingRequest()
      throws IOException {
    assertEquals(0, cli.run("predictor", "projection", "--help"));
    assertTrue(cli.out().contains("--second-profile=FILE"), cli.out());
    assertFalse(cli.out().contains("5%%"), cli.out()); // picocli formats descriptions
    List<DemandProfile.Request> requests = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      requests.add(request("q" + i, i == 7 ? 10_000 : 1_000));
    }
    Path profile = tmp.resolve("p.json");
    profile(requests).write(profile);
    Path again = tmp.resolve("again.json");
    profile(requests).write(again); // measured alike: nothing is left to noise
    assertEquals(0, projection(profile, again), cli.err());
    assertTrue(
        cli.out()
            .contains(
                "  noise    1.00 (1/1)    1.00 (1/1)    0.000       noise bound: again.json's"
                    + " measured times, flagged at its own slowest 5% (>= 0.040 ms)\n"),
        cli.out());

    Path fewer = tmp.resolve("fewer.json");
    profile(requests.subList(0, 19)).write(fewer);
    assertNotEquals(0, projection(profile, fewer));
    assertTrue(
        cli.err().contains(fewer + ": has no request with id q19, which the first profile has"),
        cli.err());
  }

  @Test
  void projectionOfAProfileOfOneUnitPerRequestNamesTheRequest() throws IOException {
    Path profile = tmp.resolve("p.json");
    profile(
            List.of(
                new DemandProfile.Request(
                    "q0",
                    null,
                    "q0",
                    1_000,
                    new long[] {1_000},
                    new double[] {1},
                    new double[0],
                    FEATURES)))
        .write(profile);
    assertNotEquals(0, cli.run("predictor", "projection", "--profile", profile.toString()));
    assertTrue(
        cli.err().contains(profile + ": requests[0].unitNanos: request q0 has one unit"),
        cli.err());
  }

  private int projection(Path profile, Path secondProfile) {
    return cli.run(
        "predictor",
        "projection",
        "--profile",
        profile.toString(),
        "--second-profile",
        secondProfile.toString());
  }

  private static DemandProfile.Request request(String id, long window) {
    long[] units = new long[4];
    Arrays.fill(units, window);
    return new DemandProfile.Request(
        id, null, id, 4 * window, units, new double[] {1}, new double[0], FEATURES);
  }

  private static DemandProfile profile(List<DemandProfile.Request> requests) {
    return DemandProfile.of(
        new DemandProfile.Environment("idx", "test", 1000, "trace.txt", 1, "25", "linux", "t"),
        new DemandProfile.Settings(1, 4, 1, 1),
        true,
        requests);
  }
}
