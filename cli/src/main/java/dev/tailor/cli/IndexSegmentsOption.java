package dev.tailor.cli;

import dev.tailor.load.IndexSegments;
import dev.tailor.measure.DemandProfile;
import dev.tailor.sim.IndexLayout;
import java.io.IOException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The index's segments that the simulator's plain-Lucene peers slice: given, or read from the
 * profile's index where it is on this machine.
 */
final class IndexSegmentsOption {

  @Option(
      names = "--index-segments",
      paramLabel = "D1,D2,...",
      description =
          "The documents of each of the index's segments, in leaf order, for the plain-Lucene"
              + " peers (lucene, lucene-executor:N, elasticsearch:N, opensearch, opensearch:auto);"
              + " default: read from the profile's index, where it is on this machine.")
  String segments;

  /**
   * The layout: {@code --index-segments} if given, else that of {@code profile}'s index if its
   * directory exists, else null (a peer is then refused, naming the option).
   */
  IndexLayout resolve(CommandSpec spec, DemandProfile profile) throws IOException {
    if (segments != null) {
      return Usage.check(spec, "--index-segments: ", () -> IndexLayout.parse(segments));
    }
    return IndexSegments.ofProfile(profile);
  }
}
