package dev.tailor.corpora.index;

import java.util.function.Supplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/** The analyzers an index may be built with, by the name the manifest records. */
public enum IndexAnalyzer {
  /** Lucene's EnglishAnalyzer: standard tokenizer, possessives, lower case, stop words, Porter. */
  ENGLISH("english", EnglishAnalyzer::new, EnglishAnalyzer.class),
  /** Lucene's StandardAnalyzer: standard tokenizer and lower case, no stop words. */
  STANDARD("standard", StandardAnalyzer::new, StandardAnalyzer.class);

  private final String id;
  private final Supplier<Analyzer> factory;
  private final Class<? extends Analyzer> type;

  IndexAnalyzer(String id, Supplier<Analyzer> factory, Class<? extends Analyzer> type) {
    this.id = id;
    this.factory = factory;
    this.type = type;
  }

  /** The name recorded in the manifest. */
  public String id() {
    return id;
  }

  String className() {
    return type.getName();
  }

  /** A new instance. */
  public Analyzer create() {
    return factory.get();
  }

  /** The analyzer with this manifest name, or null. */
  public static IndexAnalyzer byName(String name) {
    for (IndexAnalyzer a : values()) {
      if (a.id.equalsIgnoreCase(name)) {
        return a;
      }
    }
    return null;
  }
}
