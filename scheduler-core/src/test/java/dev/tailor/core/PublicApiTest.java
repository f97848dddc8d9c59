package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's public types are exactly its listed API and the types marked internal, and the
 * listed types' signatures reach no other.
 */
class PublicApiTest {

  @Test
  void everyPublicTypeIsListedOrInternal() throws Exception {
    List<String> problems = PublicApiCheck.violations(Scheduler.class, Path.of("public-api.txt"));

    assertEquals(List.of(), problems);
  }

  @Test
  void aTypeMissingFromTheListIsNamed(@TempDir Path dir) throws Exception {
    Path list = dir.resolve("public-api.txt");
    List<String> lines = Files.readAllLines(Path.of("public-api.txt"));
    Files.write(list, lines.stream().filter(l -> !l.equals("dev.tailor.core.Scheduler")).toList());
    Files.writeString(
        list, "dev.tailor.core.NoSuchType\ndev.tailor.core.Durations\n", StandardOpenOption.APPEND);

    List<String> problems = new ArrayList<>(PublicApiCheck.violations(Scheduler.class, list));

    assertEquals(3, problems.size(), problems::toString);
    assertEquals(
        "dev.tailor.core.Durations is marked @Internal but listed as API in public-api.txt",
        problems.get(0));
    assertEquals(
        "dev.tailor.core.Scheduler is public but neither listed in public-api.txt nor marked"
            + " @Internal: make it package-private, mark it @Internal, or add it to the list (and"
            + " document it)",
        problems.get(1));
    assertEquals(
        "public-api.txt lists dev.tailor.core.NoSuchType, which is not a public type of this module",
        problems.get(2));
  }

  @Test
  void aMalformedLineIsNamedWithItsNumber(@TempDir Path dir) throws Exception {
    Path list = dir.resolve("public-api.txt");
    Files.writeString(list, "# API\ndev.tailor.core.Scheduler\nnot a name\n");

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PublicApiCheck.violations(Scheduler.class, list));

    assertEquals(
        list + ":3: expected a fully qualified type name, got 'not a name'", e.getMessage());
  }
}
