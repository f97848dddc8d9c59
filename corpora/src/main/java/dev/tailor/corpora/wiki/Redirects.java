package dev.tailor.corpora.wiki;

/** What the dump reader does with redirect pages. */
public enum Redirects {
  /** Redirect pages are not documents: they have no text of their own. */
  SKIP,
  /**
   * Each redirect becomes a small document titled by the redirect whose body is the title it points
   * to, so that the alternative name is searchable. This keeps constant memory: resolving redirects
   * to their targets' text would need the whole dump at once.
   */
  FOLLOW
}
