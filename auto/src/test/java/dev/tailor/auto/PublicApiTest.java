package dev.tailor.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tailor.core.PublicApiCheck;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The module's public types are exactly its listed API. */
class PublicApiTest {

  @Test
  void everyPublicTypeIsListedOrInternal() throws Exception {
    assertEquals(List.of(), PublicApiCheck.violations(AutoPolicy.class, Path.of("public-api.txt")));
  }
}
