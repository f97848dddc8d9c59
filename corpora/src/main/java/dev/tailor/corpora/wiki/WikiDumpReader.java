package dev.tailor.corpora.wiki;

import dev.tailor.corpora.BadInputException;
import dev.tailor.corpora.CorpusDoc;
import dev.tailor.corpora.DocSource;
import dev.tailor.corpora.Inputs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a MediaWiki XML dump ({@code pages-articles*.xml}, plain or bzip2 as Wikimedia publishes
 * it) with StAX, one page at a time, so memory stays constant whatever the dump's size: only the
 * current page's text is held. Keeps namespace-0 pages (articles), skips or follows redirects (see
 * {@link Redirects}), and turns the latest revision's wiki markup into plain text with {@link
 * WikiMarkup}. The document's date is the revision's timestamp.
 */
public final class WikiDumpReader implements DocSource {

  private final Path file;
  private final Redirects redirects;
  private final InputStream stream;
  private final XMLStreamReader xml;

  /** Opens a dump. */
  public WikiDumpReader(Path file, Redirects redirects) throws IOException {
    this.file = file;
    this.redirects = redirects;
    this.stream = Inputs.open(file);
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    // The JDK's parser caps the text it accumulates (jdk.xml.totalEntitySizeLimit); full dumps
    // pass that cap, so lift it where the parser supports the property.
    liftLimit(factory, "http://www.oracle.com/xml/jaxp/properties/totalEntitySizeLimit");
    liftLimit(factory, "http://www.oracle.com/xml/jaxp/properties/maxGeneralEntitySizeLimit");
    try {
      this.xml = factory.createXMLStreamReader(stream, "UTF-8");
    } catch (XMLStreamException e) {
      stream.close();
      throw bad(e);
    }
  }

  private static void liftLimit(XMLInputFactory factory, String property) {
    try {
      factory.setProperty(property, "0");
    } catch (IllegalArgumentException e) {
      // Another StAX implementation, without the JDK's limits.
    }
  }

  @Override
  public CorpusDoc next() throws IOException {
    try {
      while (xml.hasNext()) {
        if (xml.next() == XMLStreamConstants.START_ELEMENT && xml.getLocalName().equals("page")) {
          CorpusDoc doc = page();
          if (doc != null) {
            return doc;
          }
        }
      }
      return null;
    } catch (XMLStreamException e) {
      throw bad(e);
    }
  }

  /** Reads one page, from after its start tag to its end tag; null if it is not kept. */
  private CorpusDoc page() throws XMLStreamException, IOException {
    String title = null;
    String ns = null;
    String redirect = null;
    String timestamp = "";
    String text = null;
    int depth = 1;
    while (depth > 0) {
      int event = xml.next();
      if (event == XMLStreamConstants.END_ELEMENT) {
        depth--;
      } else if (event == XMLStreamConstants.START_ELEMENT) {
        switch (xml.getLocalName()) {
          case "title" -> title = xml.getElementText();
          case "ns" -> ns = xml.getElementText().strip();
          case "redirect" -> {
            redirect = xml.getAttributeValue(null, "title");
            if (redirect == null) {
              redirect = "";
            }
            depth++;
          }
          case "timestamp" -> timestamp = xml.getElementText().strip();
          case "text" -> text = xml.getElementText();
          default -> depth++;
        }
      } else if (event == XMLStreamConstants.END_DOCUMENT) {
        throw new BadInputException(file, "the dump ends inside a <page> (truncated?)");
      }
    }
    if (title == null) {
      throw new BadInputException(
          file, xml.getLocation().getLineNumber(), "expected a <title> in every <page>");
    }
    if (ns != null && !ns.equals("0")) {
      return null;
    }
    if (ns == null && title.indexOf(':') > 0) {
      // Dumps older than 0.5 have no <ns>: a namespace shows as a prefix of the title.
      return null;
    }
    if (redirect != null || (text != null && WikiMarkup.isRedirect(text))) {
      if (redirects == Redirects.SKIP) {
        return null;
      }
      String target =
          redirect != null && !redirect.isEmpty() ? redirect : WikiMarkup.redirectTarget(text);
      return new CorpusDoc(title, timestamp, target, "redirect");
    }
    return new CorpusDoc(title, timestamp, WikiMarkup.toPlainText(text == null ? "" : text), null);
  }

  private BadInputException bad(XMLStreamException e) {
    if (e.getNestedException() instanceof BadInputException b) {
      return b;
    }
    if (e.getCause() instanceof BadInputException b) {
      return b;
    }
    int line = e.getLocation() == null ? 0 : e.getLocation().getLineNumber();
    return line > 0
        ? new BadInputException(file, line, "malformed dump XML: " + e.getMessage())
        : new BadInputException(file, "malformed dump XML: " + e.getMessage(), e);
  }

  @Override
  public void close() throws IOException {
    try {
      xml.close();
    } catch (XMLStreamException e) {
      // Closing the reader only releases its buffers; the stream is closed next.
    } finally {
      stream.close();
    }
  }
}
