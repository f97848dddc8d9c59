package dev.tailor.cli;

import dev.tailor.lucene.TotalHits;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --total-hits}: {@code exact}, or the hits a search counts exactly before skipping.
 */
final class TotalHitsThreshold implements ITypeConverter<Integer> {

  /** What the option's description says of its values. */
  static final String VALUES =
      "exact (every hit counted, so every match scored, as OpenSearch's track_total_hits: true)"
          + " or a number of hits (Lucene's default 1000: past it, non-competitive documents are"
          + " skipped)";

  @Override
  public Integer convert(String value) {
    try {
      return TotalHits.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
