package dev.tailor.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.lucene.util.Version;
import org.junit.jupiter.api.Test;

/**
 * Which Lucene this run of the suite is on: the build runs every test of this module on the
 * project's Lucene and again on the OpenSearch plugin's (the newest OpenSearch release's), and says
 * which through {@code tailor.expected.lucene}; this test fails if the class path holds another.
 */
class LuceneVersionTest {

  @Test
  void theSuiteRunsOnTheLuceneTheBuildNamed() {
    String expected = System.getProperty("tailor.expected.lucene");
    assertEquals(expected, Version.LATEST.toString(), "Lucene on the class path");
  }
}
