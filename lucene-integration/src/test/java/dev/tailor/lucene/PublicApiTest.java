package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.PublicApiCheck;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The drop-in's public types are exactly its listed API and the types marked internal; and what an
 * embedder of the drop-in is offered, with the runtime's, is printed and held to a handful.
 */
class PublicApiTest {

  /** The most types an embedder of the drop-in needs to learn. */
  private static final int MOST_DROP_IN_TYPES = 10;

  @Test
  void everyPublicTypeIsListedOrInternal() throws Exception {
    assertEquals(
        List.of(), PublicApiCheck.violations(TailorSearcher.class, Path.of("public-api.txt")));
  }

  @Test
  void theDropInsApiIsAHandfulOfTypesAndTheCountIsPrinted() throws Exception {
    Map<String, List<String>> runtime =
        PublicApiCheck.sections(Path.of("..", "scheduler-core", "public-api.txt"));
    Map<String, List<String>> searcher = PublicApiCheck.sections(Path.of("public-api.txt"));
    List<String> dropIn = new ArrayList<>(searcher.getOrDefault("drop-in", List.of()));
    dropIn.addAll(runtime.getOrDefault("drop-in", List.of()));
    List<String> spi = runtime.getOrDefault("policy SPI", List.of());
    System.out.printf(
        "the drop-in's API: %d types %s%nthe policy SPI (for who writes a policy): %d types %s%n",
        dropIn.size(), dropIn, spi.size(), spi);

    assertTrue(dropIn.contains("dev.tailor.lucene.TailorSearcher"), dropIn::toString);
    assertTrue(dropIn.contains("dev.tailor.core.Scheduler"), dropIn::toString);
    assertTrue(
        dropIn.size() <= MOST_DROP_IN_TYPES,
        () -> dropIn.size() + " drop-in types, more than " + MOST_DROP_IN_TYPES + ": " + dropIn);
    assertEquals(
        List.of("drop-in", "policy SPI"),
        List.copyOf(runtime.keySet()),
        "every type of the runtime's list is in one of the two sections");
  }
}
