package dev.tailor.corpora.linedocs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The feed of documents to index beside search: round and round, numbered, never stored. */
class LineDocsFeedTest {

  @Test
  void startsAgainAfterTheLastDocumentAndNumbersEveryOne(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("docs.txt");
    Files.writeString(file, LineDocReader.HEADER + "\ttitle\tdate\tbody\nT1\tD\tone\nT2\tD\ttwo\n");
    List<String> seen = new ArrayList<>();
    try (LineDocsFeed feed = new LineDocsFeed(file)) {
      for (int i = 0; i < 5; i++) {
        Document d = feed.next();
        seen.add(d.get("id") + ":" + d.getField("body").stringValue());
        assertEquals(false, d.getField("body").fieldType().stored());
      }
    }
    assertEquals(List.of("0:T1 one", "1:T2 two", "2:T1 one", "3:T2 two", "4:T1 one"), seen);
  }

  @Test
  void aFileWithoutDocumentsGivesNone(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("empty.txt");
    Files.writeString(file, LineDocReader.HEADER + "\ttitle\tdate\tbody\n");
    try (LineDocsFeed feed = new LineDocsFeed(file)) {
      assertNull(feed.next());
    }
  }
}
