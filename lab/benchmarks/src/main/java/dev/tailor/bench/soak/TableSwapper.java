package dev.tailor.bench.soak;

import dev.tailor.core.io.AtomicFiles;
import dev.tailor.core.table.TableSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.IntFunction;

/**
 * The fault soak's table swaps ({@link FaultSoak}). Replaces one of the table files at each swap,
 * two times in three with a good table (one of two, so that each swap changes the table) through
 * the real writer, else with garbage through {@link AtomicFiles}, and reloads the policy's source
 * at once, so that every swap is counted; the policies' watchers poll the same files meanwhile.
 */
final class TableSwapper {

  /** One watched table file. */
  record Target<T>(Path file, TableSource<T> source, IntFunction<T> table, Writer<T> w) {}

  /** A table's writer. */
  interface Writer<T> {
    void write(T table, Path file) throws IOException;
  }

  private final Target<?>[] targets;
  private int swaps;
  long good;
  long corrupt;
  long swappedIn;
  long rejected;

  TableSwapper(Target<?>... targets) {
    this.targets = targets;
  }

  void swap(long random) throws IOException {
    Target<?> t = targets[(int) Long.remainderUnsigned(random, targets.length)];
    boolean bad = Long.remainderUnsigned(random >>> 8, 3) == 0;
    if (bad) {
      corrupt++;
      AtomicFiles.writeString(t.file(), "{\"format\": \"tailor-table\", \"rows\": [" + swaps);
    } else {
      good++;
      write(t, ++swaps);
    }
    if (t.source().reload()) {
      swappedIn++;
    } else {
      rejected++;
    }
  }

  private static <T> void write(Target<T> t, int variant) throws IOException {
    t.w().write(t.table().apply(variant), t.file());
  }
}
