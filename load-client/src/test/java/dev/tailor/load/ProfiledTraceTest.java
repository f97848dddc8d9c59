package dev.tailor.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.policy.RequestView;
import dev.tailor.measure.DemandProfile;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;

class ProfiledTraceTest {

  private static final TermQuery SEA = new TermQuery(new Term("body", "sea"));

  private static final List<ProfiledTrace.Query> QUERIES =
      List.of(
          new ProfiledTrace.Query("q1", "term", "sea", SEA),
          new ProfiledTrace.Query("q2", null, "x", SEA));

  private static DemandProfile profile() {
    DemandProfile.Request r =
        new DemandProfile.Request(
            "q1",
            "term",
            "sea",
            4_000_000,
            new long[] {2_000_000, 2_000_000},
            new double[] {1.0, 1.8},
            new double[0],
            new DemandProfile.Features("TermQuery", 1, new long[] {1}, 1));
    return DemandProfile.of(
        new DemandProfile.Environment(
            "/index", "test", 10, "/trace", 2, "25", "Linux amd64", "2026-01-01T00:00Z"),
        new DemandProfile.Settings(1, 2, 2, 2),
        true,
        List.of(r));
  }

  @Test
  void entriesCarryTheProfiledTimeAndSpeedupCurve() {
    List<InProcessTarget.TraceEntry> entries =
        new ProfiledTrace(QUERIES, profile(), Path.of("p.json")).entries();
    assertEquals(4_000_000, entries.get(0).profiledNanos());
    assertNotNull(entries.get(0).profiledSpeedup());
    assertEquals(1.8, entries.get(0).profiledSpeedup().at(2), 1e-9);
    assertEquals(RequestView.UNKNOWN, entries.get(1).profiledNanos());
    assertNull(entries.get(1).profiledSpeedup());
    assertNull(new ProfiledTrace(QUERIES, null, null).entries().get(0).profiledSpeedup());
  }

  @Test
  void theOracleNeedsEveryReplayedQueryProfiled() {
    ProfiledTrace trace = new ProfiledTrace(QUERIES, profile(), Path.of("p.json"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, trace::inTraceOrder);
    assertTrue(e.getMessage().contains("profile p.json has no query q2"), e.getMessage());
    DemandProfile first =
        new ProfiledTrace(QUERIES.subList(0, 1), profile(), Path.of("p.json")).inTraceOrder();
    assertEquals("q1", first.requests().get(0).id());
  }
}
