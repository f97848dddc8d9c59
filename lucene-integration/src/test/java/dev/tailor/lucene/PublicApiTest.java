package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tailor.core.PublicApiCheck;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The drop-in's public types are exactly its listed API and the types marked internal. */
class PublicApiTest {

  @Test
  void everyPublicTypeIsListedOrInternal() throws Exception {
    assertEquals(
        List.of(), PublicApiCheck.violations(TailorSearcher.class, Path.of("public-api.txt")));
  }
}
