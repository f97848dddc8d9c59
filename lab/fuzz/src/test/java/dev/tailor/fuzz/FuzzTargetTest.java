package dev.tailor.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FuzzTargetTest {

  /** The worktree: tests run in the fuzz module's directory. */
  private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

  @Test
  void everyTargetHasSeedsWhereJazzerLooksForThem() {
    for (FuzzTarget t : FuzzTarget.ALL.values()) {
      Path inputs = t.inputs(ROOT);
      assertTrue(Files.isDirectory(inputs), t.name() + ": no inputs directory " + inputs);
      Path test =
          ROOT.resolve("lab/fuzz/src/test/java")
              .resolve(t.testPackage().replace('.', '/'))
              .resolve(t.testClass() + ".java");
      assertTrue(Files.isRegularFile(test), t.name() + ": no test class " + test);
    }
  }

  @Test
  void findingsAreTheInputsLibFuzzerNamesByKind(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("seed.json"), "{}");
    Files.writeString(dir.resolve("crash-0a1b"), "x");
    Files.writeString(dir.resolve("timeout-77"), "y");
    Files.writeString(dir.resolve("slow-unit-5"), "slow, under the timeout: no finding");
    assertEquals(
        Set.of(dir.resolve("crash-0a1b"), dir.resolve("timeout-77")), FuzzTarget.findings(dir));
    assertEquals(Set.of(), FuzzTarget.findings(dir.resolve("absent")));
  }
}
