package dev.tailor.studies;

import java.util.List;

/**
 * A study as data: the points it runs and the columns of the table they fill, one row a point.
 *
 * @param <P> a point's setting
 */
public interface Study<P> {

  /** The heading of the study's table, or null for none. */
  default String title() {
    return null;
  }

  /** The table's columns. */
  List<Table.Column> columns();

  /** The points, in the order the table lists them. */
  List<P> points();

  /**
   * Runs one point.
   *
   * @return its row, one formatted cell per column
   * @throws IllegalArgumentException if a setting of the point cannot be run
   */
  List<String> run(P point);
}
