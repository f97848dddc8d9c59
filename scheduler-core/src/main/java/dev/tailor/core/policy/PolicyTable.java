package dev.tailor.core.policy;

import dev.tailor.core.table.TableSource;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The table a table-driven policy decides by (Few-to-Many's intervals, TPC's targets,
 * tail-control's thresholds): its source, whether the policy opened it and so closes it, and the
 * file its identity names. What the three policies share about their tables, and the factory that
 * turns {@code NAME:TABLE.json} into one of them.
 *
 * @param <T> the table
 */
final class PolicyTable<T> {

  private final TableSource<T> source;
  private final boolean owned;

  private PolicyTable(TableSource<T> source, boolean owned) {
    this.source = source;
    this.owned = owned;
  }

  /** A source the caller keeps: closing the policy does not close it. */
  static <T> PolicyTable<T> of(TableSource<T> source) {
    return new PolicyTable<>(source, false);
  }

  /**
   * Reads a table file and watches it for a new table until the policy closes; a new file that is
   * not a valid table is rejected and the current table keeps serving.
   *
   * @throws IllegalArgumentException if the file is missing or invalid, naming file, field and
   *     problem
   */
  static <T> PolicyTable<T> watching(Path file, TableSource.Reader<T> reader) {
    try {
      return new PolicyTable<>(TableSource.watch(file, reader), true);
    } catch (NoSuchFileException e) {
      // Its message is the bare path, which does not say what is wrong with it.
      throw new IllegalArgumentException("no such file: " + file, e);
    } catch (IOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** The source, whose current table every decision reads. */
  TableSource<T> source() {
    return source;
  }

  /** The current table: one volatile read. */
  T current() {
    return source.current();
  }

  /** The file the table is read from, or null when it was handed over in memory. */
  Path file() {
    return source.file();
  }

  /** The identity of the policy {@code kind} reading this table: its file, or in memory. */
  PolicySpec identity(String kind) {
    Path file = source.file();
    return file == null ? PolicySpec.inMemory(kind) : PolicySpec.ofTables(kind, file);
  }

  /** Stops watching the file if the policy opened it; the current table keeps serving. */
  void close() {
    if (owned) {
      source.close();
    }
  }

  /**
   * The factory of the policy {@code name}, whose argument is a table file.
   *
   * @param tableKind what the table is called in the error for a missing file ("interval")
   * @param create the policy watching the given file
   */
  static PolicyFactory factory(
      String name, String tableKind, String description, Function<Path, Policy> create) {
    return new BuiltInFactory(
        name,
        name + ":TABLE.json",
        description,
        spec -> {
          if (spec.tables().isEmpty()) {
            throw new IllegalArgumentException("expected the " + tableKind + " table's file");
          }
          return create.apply(spec.tables().get(0));
        });
  }
}
