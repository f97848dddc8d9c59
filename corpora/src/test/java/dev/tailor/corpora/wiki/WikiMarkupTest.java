package dev.tailor.corpora.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WikiMarkupTest {

  private static String text(String markup) {
    return WikiMarkup.toPlainText(markup);
  }

  @Test
  void templatesNestToAnyDepthAndUnbalancedOnesLoseOnlyTheirMarkers() {
    assertEquals("a b", text("a {{x|{{y|{{z}}}}|w}} b"));
    assertEquals("a x b", text("a {{x b"));
  }

  @Test
  void linksKeepTheirTextAndFilesCategoriesAndInterwikiGo() {
    assertEquals("cats and Paris", text("[[cat|cats]] and [[Paris]]"));
    assertEquals("dogs", text("[[dog]]s"));
    assertEquals("see", text("see [[File:X.jpg|thumb|caption with [[link]] inside]]"));
    assertEquals("x", text("x [[Category:Things]] [[de:Ding]]"));
    assertEquals("Category:Things", text("[[:Category:Things]]"));
    assertEquals("Paris", text("[[Paris, Texas|]]"));
    assertEquals("History", text("[[#History]]"));
  }

  @Test
  void referencesTablesCommentsAndTagsGo() {
    assertEquals("a b c", text("a<ref>cite {{x}}</ref> b<ref name=\"n/1\"/> c"));
    assertEquals("before after", text("before\n{|\n| cell {| nested |}\n|}\nafter"));
    assertEquals("x y", text("x <!-- hidden --> y"));
    assertEquals("E = mc", text("E = mc<math>^2</math>"));
    assertEquals("bold and italic", text("'''bold''' and ''italic''"));
    assertEquals("a\u00a0", text("a&#160;").replace(' ', '\u00a0'));
  }

  @Test
  void redirectsAreRecognised() {
    assertTrue(WikiMarkup.isRedirect("#REDIRECT [[Target page]]"));
    assertTrue(WikiMarkup.isRedirect("#redirect: [[Target page#Section]]"));
    assertEquals("Target page", WikiMarkup.redirectTarget("#redirect [[Target page#Section]]"));
    assertFalse(WikiMarkup.isRedirect("A page about #REDIRECT"));
  }
}
