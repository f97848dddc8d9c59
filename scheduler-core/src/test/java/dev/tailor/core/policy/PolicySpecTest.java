package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A specification string and its typed identity say the same thing, both ways. */
class PolicySpecTest {

  /** A specification of every built-in kind, with and without arguments, suffixes and quotes. */
  private static final List<String> EVERY_KIND =
      List.of(
          "seq",
          "seq@admit-first",
          "fixed:4",
          "fixed:2@help-first",
          "steal-first",
          "admit-first",
          "adaptive",
          "adaptive:1,1.9,2.5",
          "wq-linear",
          "wq-linear:3",
          "rampup:10ms,6",
          "pred",
          "pred:40ms",
          "pred:40ms,2",
          "rc:80ms,3",
          "oracle:0",
          "oracle:30ms,2",
          "fm:tables/fm.json",
          "fm-wc:/data/fm-table.json@admit-first",
          "tpc:t.json",
          "tp:t.json",
          "tpc-oracle:t.json",
          "tc:tc-{rps}.json",
          "tc-oracle:C:/tables/tc.json",
          "progress:t.json",
          "progress:t.json+th.json",
          "progress:\"run@2/t+1.json\"+\"th, v2.json\"@admit-first",
          "fm:\"(in memory)\"",
          "fm:(in memory)",
          "auto",
          "auto:period=1m,requests=500",
          "third-party:\"a,b\",c,\"say \"\"hi\"\"\"");

  @Test
  void everyKindRoundTripsThroughItsString() {
    for (String written : EVERY_KIND) {
      PolicySpec spec = PolicySpec.parse(written);
      assertEquals(spec, PolicySpec.parse(spec.toString()), written);
      assertEquals(spec.toString(), PolicySpec.parse(spec.toString()).toString(), written);
    }
  }

  @Test
  void typedIdentitiesRoundTripWhateverTheirFilesAreCalled() {
    List<PolicySpec> specs =
        List.of(
            PolicySpec.of("seq"),
            PolicySpec.of("fixed", "4").withPreference(WorkerPreference.ADMIT_FIRST),
            PolicySpec.of("rampup", "10ms", "6"),
            PolicySpec.of("odd", "a,b", "", "@x", " padded ", "\"q"),
            PolicySpec.of("odd", ""),
            PolicySpec.ofTables("fm", Path.of("/data/a@b+c,d:e.json")),
            PolicySpec.ofTables("tpc", Path.of("\"quoted\".json")),
            PolicySpec.ofTables("progress", Path.of("t+1.json"), Path.of("th@2.json")),
            PolicySpec.ofTables("tc", Path.of(PolicySpec.IN_MEMORY)),
            PolicySpec.inMemory("progress"));
    for (PolicySpec spec : specs) {
      assertEquals(spec, PolicySpec.parse(spec.toString()), spec.toString());
    }
    assertEquals("fm:\"/data/a@b+c,d:e.json\"", specs.get(5).toString());
    assertEquals("progress:\"t+1.json\"+\"th@2.json\"", specs.get(7).toString());
    assertEquals("progress:(in memory)", specs.get(9).toString());
  }

  @Test
  void itReadsTodaysGrammar() {
    PolicySpec fixed = PolicySpec.parse(" FIXED: 3 ");
    assertEquals("fixed", fixed.kind());
    assertEquals(List.of("3"), fixed.arguments());
    assertEquals(Optional.empty(), fixed.preference());
    assertEquals("fixed:3", fixed.toString());

    assertEquals(List.of("10ms", "6"), PolicySpec.parse("rampup:10ms, 6").arguments());
    assertEquals(List.of(), PolicySpec.parse("seq:").arguments());
    assertEquals(List.of("4", ""), PolicySpec.parse("fixed:4,").arguments());
    assertEquals(
        List.of("period=1m", "requests=500"),
        PolicySpec.parse("auto:period=1m,requests=500").arguments());

    // A table-driven kind's argument is the whole text after the colon, commas included.
    assertEquals(List.of(Path.of("/x,y.json")), PolicySpec.parse("fm:/x,y.json").tables());
    assertEquals(List.of(), PolicySpec.parse("fm:/x,y.json").arguments());
    // progress splits at the last '+'.
    assertEquals(
        List.of(Path.of("a+b"), Path.of("c")), PolicySpec.parse("progress: a+b + c ").tables());

    // The last suffix counts, as the last override did.
    PolicySpec twice = PolicySpec.parse("fixed:2@admit-first@HELP-FIRST");
    assertEquals(Optional.of(WorkerPreference.HELP_FIRST), twice.preference());
    assertEquals("fixed:2@help-first", twice.toString());
    assertEquals(PolicySpec.of("fixed", "2"), twice.withoutPreference());
  }

  @Test
  void quotesKeepWhatTheGrammarWouldOtherwiseRead() {
    PolicySpec p = PolicySpec.parse("progress: \"a@1+2.json\" + \"b,c.json\" @admit-first");
    assertEquals(List.of(Path.of("a@1+2.json"), Path.of("b,c.json")), p.tables());
    assertEquals(Optional.of(WorkerPreference.ADMIT_FIRST), p.preference());
    assertEquals(
        List.of("a,b", "say \"hi\"", "x\"y"),
        PolicySpec.parse("odd:\"a,b\",\"say \"\"hi\"\"\",x\"y").arguments());
    // A quote elsewhere than at the start of a file is an ordinary character.
    assertEquals(List.of(Path.of("/a/\"b\".json")), PolicySpec.parse("fm:/a/\"b\".json").tables());
    assertTrue(PolicySpec.parse("fm:(in memory)").inMemory());
    assertFalse(PolicySpec.parse("fm:\"(in memory)\"").inMemory());
  }

  @Test
  void badStringsAreRejectedNamingTheExpectedForm() {
    assertMessage("fixed:2@first", "unknown suffix '@first' (expected @help-first or @admit-first");
    assertMessage("fm:/a@b/t.json", "a file whose name has an @ is written in quotes");
    assertMessage("progress:t.json+", "expected two files around '+'");
    assertMessage("fm:\"t.json", "is not closed");
    assertMessage("fm:\"t\".json", "expected '@' or the end after the quoted \"t\"");
    assertMessage("", "expected a policy's name first");
    assertMessage("@admit-first", "expected a policy's name first");
  }

  @Test
  void typedFactoriesCheckWhatTheyAreGiven() {
    assertThrows(IllegalArgumentException.class, () -> PolicySpec.of("fm", "t.json"));
    assertThrows(IllegalArgumentException.class, () -> PolicySpec.ofTables("seq", Path.of("t")));
    assertThrows(IllegalArgumentException.class, () -> PolicySpec.ofTables("tpc"));
    assertThrows(
        IllegalArgumentException.class,
        () -> PolicySpec.ofTables("tpc", Path.of("a"), Path.of("b")));
    assertThrows(IllegalArgumentException.class, () -> PolicySpec.of("a:b"));
    assertThrows(IllegalArgumentException.class, () -> PolicySpec.inMemory("fixed"));
  }

  @Test
  void aBuiltPolicyAnswersItsIdentity() {
    for (String written :
        List.of("seq", "fixed:2@admit-first", "rampup:10ms,6", "pred:40ms,2", "oracle:30ms")) {
      try (Policy p = PolicyRegistry.of(written)) {
        assertEquals(PolicySpec.parse(written), p.identity(), written);
        assertEquals(p, PolicyRegistry.of(p.identity()), written);
      }
    }
    // A factory given the text after the colon reads it as the registry does.
    PolicyFactory fixed =
        PolicyRegistry.standard().factories().stream()
            .filter(f -> f.name().equals("fixed"))
            .findFirst()
            .orElseThrow();
    assertEquals(Policies.fixed(4), fixed.create(" 4 "));
    // Normalised as the policy writes its spec: pred's defaults filled in.
    assertEquals(PolicySpec.of("pred", "80ms", "3"), PolicyRegistry.of("pred").identity());
  }

  @Test
  void aTableAtAPathWithAtAndPlusLoads(@TempDir Path dir) throws IOException {
    Path sub = dir.resolve("run@2+b, c");
    java.nio.file.Files.createDirectories(sub);
    Path fm = sub.resolve("fm@1+x.json");
    Path targets = sub.resolve("targets@1+x.json");
    Path thresholds = sub.resolve("th+1@x.json");
    FewToManyPolicyTest.table(50).write(fm);
    TpcPolicyTest.table().write(targets);
    TailControlPolicyTest.table(100, 40, 10).write(thresholds);
    List<PolicySpec> specs =
        List.of(
            PolicySpec.ofTables("fm", fm),
            PolicySpec.ofTables("tpc", targets),
            PolicySpec.ofTables("progress", targets, thresholds));
    for (PolicySpec spec : specs) {
      try (Policy fromString = PolicyRegistry.of(spec.toString());
          Policy fromSpec = PolicyRegistry.of(spec)) {
        assertEquals(spec, fromString.identity());
        assertEquals(spec, fromSpec.identity());
        assertEquals(spec.toString(), fromString.spec());
        // The table was read: the policy decides by it.
        assertEquals(
            fromSpec.admit(new FakeRequest(), new FakeSystem()).toString(),
            fromString.admit(new FakeRequest(), new FakeSystem()).toString());
      }
    }
    try (Policy a = Policies.fewToMany(fm);
        Policy b = Policies.tpc(targets);
        Policy c = Policies.progress(targets, thresholds)) {
      assertEquals(specs, List.of(a.identity(), b.identity(), c.identity()));
    }
    // Within a list, the quoted commas do not split.
    assertEquals(
        List.of("seq", specs.get(2).toString(), "fixed:2"),
        PolicyRegistry.standard().splitList("seq," + specs.get(2) + ",fixed:2"));
  }

  @Test
  void aPolicyOnATableInMemoryCannotBeCreatedFromItsIdentity() {
    try (Policy p =
        ProgressPolicy.of(dev.tailor.core.table.TableSource.fixed(TpcPolicyTest.table()), null)) {
      assertEquals(PolicySpec.inMemory("progress"), p.identity());
      assertEquals("progress:(in memory)", p.spec());
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of(p.identity()));
      assertTrue(e.getMessage().contains("tables held in memory"), e.getMessage());
    }
  }

  private static void assertMessage(String spec, String expected) {
    String message =
        assertThrows(IllegalArgumentException.class, () -> PolicyRegistry.of(spec)).getMessage();
    assertTrue(message.contains(expected), message);
    if (!spec.isEmpty() && !spec.startsWith("@")) {
      assertTrue(message.contains("expected"), message);
    }
  }
}
