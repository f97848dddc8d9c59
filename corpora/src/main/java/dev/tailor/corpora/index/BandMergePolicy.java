package dev.tailor.corpora.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;

/**
 * Merges only when forced, and then only the segments of one band of consecutive documents into
 * one: band {@code b} holds documents {@code [b * perSegment, (b + 1) * perSegment)}. The indexer
 * flushes at every band boundary, so flushes the RAM buffer forces in between only split a band,
 * and the forced merge restores exactly one segment per band. The layout therefore depends on the
 * document count and the segment count alone, never on memory or timing.
 */
final class BandMergePolicy extends MergePolicy {

  private final long perSegment;

  BandMergePolicy(long perSegment) {
    this.perSegment = perSegment;
  }

  @Override
  public MergeSpecification findMerges(
      MergeTrigger trigger, SegmentInfos infos, MergeContext context) {
    return null;
  }

  @Override
  public MergeSpecification findForcedMerges(
      SegmentInfos infos,
      int maxSegmentCount,
      Map<SegmentCommitInfo, Boolean> segmentsToMerge,
      MergeContext context)
      throws IOException {
    MergeSpecification spec = new MergeSpecification();
    Set<SegmentCommitInfo> merging = context.getMergingSegments();
    List<SegmentCommitInfo> band = new ArrayList<>();
    long base = 0;
    long currentBand = -1;
    for (SegmentCommitInfo info : infos) {
      long b = base / perSegment;
      if (b != currentBand) {
        addMerge(spec, band, merging);
        band = new ArrayList<>();
        currentBand = b;
      }
      band.add(info);
      base += info.info.maxDoc();
    }
    addMerge(spec, band, merging);
    return spec.merges.isEmpty() ? null : spec;
  }

  private static void addMerge(
      MergeSpecification spec, List<SegmentCommitInfo> band, Set<SegmentCommitInfo> merging) {
    if (band.size() > 1 && band.stream().noneMatch(merging::contains)) {
      spec.add(new OneMerge(band));
    }
  }

  @Override
  public MergeSpecification findForcedDeletesMerges(SegmentInfos infos, MergeContext context) {
    return null;
  }

  @Override
  public boolean useCompoundFile(
      SegmentInfos infos, SegmentCommitInfo mergedInfo, MergeContext context) {
    return false;
  }
}
