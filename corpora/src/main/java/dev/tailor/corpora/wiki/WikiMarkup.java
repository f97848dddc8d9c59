package dev.tailor.corpora.wiki;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns MediaWiki markup into plain text for indexing: the prose a reader sees, on one line.
 *
 * <p>Dropped: comments, references, templates (infoboxes, citations, navboxes: nested to any
 * depth), tables, files and images with their captions, categories, interlanguage links, math and
 * gallery blocks, magic words, HTML tags. Kept as text: the label of internal links ({@code
 * [[target|label]]} gives {@code label}, {@code [[target]]} gives {@code target}), the label of
 * external links, headings, list items, bold and italic text. Character entities are decoded.
 *
 * <p>Templates are dropped rather than expanded: expansion needs the template pages, which a dump
 * of articles does not have, and the text they produce (dates, units, citations) is a small part of
 * an article.
 */
public final class WikiMarkup {

  private static final Pattern COMMENT = Pattern.compile("<!--.*?(-->|$)", Pattern.DOTALL);
  private static final Pattern REF =
      Pattern.compile(
          "<ref\\b[^>]*/>|<ref\\b[^>]*>.*?(</ref\\s*>|$)",
          Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
  private static final Pattern BLOCKS =
      Pattern.compile(
          "<(math|gallery|timeline|score|syntaxhighlight|source|imagemap|chem|ce|hiero|graph)\\b[^>]*>"
              + ".*?(</\\1\\s*>|$)",
          Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
  private static final Pattern EXTERNAL_LINK =
      Pattern.compile("\\[(?:https?:|ftp:|mailto:|//)[^\\s\\]]*(?:\\s+([^\\]]*))?\\]");
  private static final Pattern TAG = Pattern.compile("</?[A-Za-z][A-Za-z0-9]*\\b[^>]*>");
  private static final Pattern HEADING =
      Pattern.compile("^=+\\s*(.*?)\\s*=+\\s*$", Pattern.MULTILINE);
  private static final Pattern EMPHASIS = Pattern.compile("'{2,}");
  private static final Pattern LIST_MARK = Pattern.compile("^[*#:;]+\\s*", Pattern.MULTILINE);
  private static final Pattern RULE = Pattern.compile("^-{4,}", Pattern.MULTILINE);
  private static final Pattern MAGIC = Pattern.compile("__[A-Z]+__");
  private static final Pattern ENTITY = Pattern.compile("&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);");
  private static final Pattern SPACE = Pattern.compile("\\s+");
  private static final Pattern REDIRECT =
      Pattern.compile("^\\s*#REDIRECT\\s*:?\\s*\\[\\[([^\\]|#]*)", Pattern.CASE_INSENSITIVE);
  private static final Pattern INTERWIKI = Pattern.compile("^[a-z]{2,3}(-[a-z]+)*:");

  /** Link prefixes whose whole link is dropped (namespaces that are not prose). */
  private static final Set<String> DROPPED_NAMESPACES =
      Set.of("file", "image", "media", "category", "wikt", "wiktionary", "s", "commons");

  private WikiMarkup() {}

  /** Whether the page text is a redirect ({@code #REDIRECT [[Target]]}). */
  public static boolean isRedirect(String text) {
    return REDIRECT.matcher(text).find();
  }

  /** The target of a redirect's text, or the empty string. */
  public static String redirectTarget(String text) {
    if (text == null) {
      return "";
    }
    Matcher m = REDIRECT.matcher(text);
    return m.find() ? m.group(1).strip() : "";
  }

  /** The plain text of a page's markup, on one line with single spaces. */
  public static String toPlainText(String markup) {
    String s = COMMENT.matcher(markup).replaceAll("");
    s = REF.matcher(s).replaceAll(" ");
    s = BLOCKS.matcher(s).replaceAll(" ");
    s = dropNested(s, "{{", "}}");
    s = dropNested(s, "{|", "|}");
    s = links(s);
    s = EXTERNAL_LINK.matcher(s).replaceAll(m -> m.group(1) == null ? "" : quote(m.group(1)));
    s = TAG.matcher(s).replaceAll(" ");
    s = HEADING.matcher(s).replaceAll(m -> quote(m.group(1)) + ".");
    s = EMPHASIS.matcher(s).replaceAll("");
    s = LIST_MARK.matcher(s).replaceAll("");
    s = RULE.matcher(s).replaceAll("");
    s = MAGIC.matcher(s).replaceAll("");
    s = ENTITY.matcher(s).replaceAll(m -> quote(entity(m.group(1), m.group())));
    return SPACE.matcher(s).replaceAll(" ").strip();
  }

  /**
   * Removes every {@code open ... close} span, nested to any depth. An opener without its closer is
   * dropped alone, so broken markup loses a marker rather than the rest of the article.
   */
  static String dropNested(String s, String open, String close) {
    StringBuilder out = new StringBuilder(s.length());
    int depth = 0;
    int spanStart = -1;
    int i = 0;
    while (i < s.length()) {
      if (s.startsWith(open, i)) {
        if (depth == 0) {
          spanStart = i;
        }
        depth++;
        i += open.length();
      } else if (depth > 0 && s.startsWith(close, i)) {
        depth--;
        i += close.length();
        if (depth == 0) {
          out.append(' ');
        }
      } else {
        if (depth == 0) {
          out.append(s.charAt(i));
        }
        i++;
      }
    }
    if (depth > 0) {
      // Unbalanced: keep what followed the outermost unclosed opener, minus the markers.
      out.append(dropNested(s.substring(spanStart + open.length()), open, close));
    }
    return out.toString();
  }

  /** Replaces internal links by their text and drops files, categories and interwiki links. */
  static String links(String s) {
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      int start = s.indexOf("[[", i);
      if (start < 0) {
        out.append(s, i, s.length());
        break;
      }
      out.append(s, i, start);
      int end = matchingClose(s, start);
      if (end < 0) {
        i = start + 2;
        continue;
      }
      out.append(linkText(s.substring(start + 2, end)));
      i = end + 2;
    }
    return out.toString();
  }

  private static int matchingClose(String s, int start) {
    int depth = 0;
    int i = start;
    while (i < s.length() - 1) {
      if (s.startsWith("[[", i)) {
        depth++;
        i += 2;
      } else if (s.startsWith("]]", i)) {
        depth--;
        if (depth == 0) {
          return i;
        }
        i += 2;
      } else {
        i++;
      }
    }
    return -1;
  }

  private static String linkText(String inner) {
    String target = inner.startsWith(":") ? inner.substring(1) : inner;
    int colon = target.indexOf(':');
    if (!inner.startsWith(":") && colon > 0) {
      String prefix = target.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      if (DROPPED_NAMESPACES.contains(prefix) || INTERWIKI.matcher(target).find()) {
        return " ";
      }
    }
    int bar = target.indexOf('|');
    String text = bar < 0 ? target : target.substring(bar + 1);
    if (bar >= 0 && text.isBlank()) {
      // The "pipe trick" [[Paris, Texas|]] shows the target without its qualifier.
      text = target.substring(0, bar).replaceAll("\\s*[(,].*$", "");
    }
    if (bar < 0) {
      int hash = text.indexOf('#');
      text = hash == 0 ? text.substring(1) : hash > 0 ? text.substring(0, hash) : text;
    }
    return links(text);
  }

  private static String entity(String name, String whole) {
    if (name.startsWith("#x") || name.startsWith("#X")) {
      return codePoint(Integer.parseInt(name.substring(2), 16), whole);
    }
    if (name.startsWith("#")) {
      return codePoint(Integer.parseInt(name.substring(1)), whole);
    }
    return switch (name) {
      case "nbsp", "ensp", "emsp", "thinsp" -> " ";
      case "amp" -> "&";
      case "lt" -> "<";
      case "gt" -> ">";
      case "quot" -> "\"";
      case "apos" -> "'";
      case "ndash" -> "\u2013";
      case "mdash" -> "\u2014";
      case "minus" -> "\u2212";
      case "times" -> "\u00d7";
      case "deg" -> "\u00b0";
      case "hellip" -> "\u2026";
      default -> whole;
    };
  }

  private static String codePoint(int cp, String whole) {
    return Character.isValidCodePoint(cp) ? new String(Character.toChars(cp)) : whole;
  }

  private static String quote(String s) {
    return Matcher.quoteReplacement(s);
  }
}
