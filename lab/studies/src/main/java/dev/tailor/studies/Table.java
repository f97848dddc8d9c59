package dev.tailor.studies;

import dev.tailor.load.report.ResultsCsv;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A table of formatted cells under named columns, rendered as Markdown or CSV. Every study's table
 * is one of these, so that every study renders the same way.
 */
public final class Table {

  /** A column: its header, and whether it holds numbers (right-aligned in Markdown). */
  public record Column(String name, boolean numeric) {

    /** A column of numbers. */
    public static Column number(String name) {
      return new Column(name, true);
    }

    /** A column of words. */
    public static Column text(String name) {
      return new Column(name, false);
    }
  }

  /** How a table is written: a header, then one line per row. */
  public enum Format {
    /** A GitHub-flavoured Markdown table, numbers right-aligned. */
    MARKDOWN,
    /** RFC 4180 CSV, a header line first. */
    CSV;

    /** The header: the column names, and in Markdown the alignment rule under them. */
    public String header(List<Column> columns) {
      List<String> names = columns.stream().map(Column::name).toList();
      if (this == CSV) {
        return row(names);
      }
      String rule =
          columns.stream().map(c -> c.numeric() ? "---:" : "---").collect(Collectors.joining("|"));
      return row(names) + "|" + rule + "|" + System.lineSeparator();
    }

    /** One row, its line separator included. */
    public String row(List<String> cells) {
      if (this == CSV) {
        return cells.stream().map(ResultsCsv::quote).collect(Collectors.joining(","))
            + System.lineSeparator();
      }
      StringBuilder line = new StringBuilder("|");
      for (String cell : cells) {
        line.append(cell.isEmpty() ? " " : " " + cell + " ").append('|');
      }
      return line.append(System.lineSeparator()).toString();
    }
  }

  private final List<Column> columns;
  private final List<List<String>> rows = new ArrayList<>();

  /** An empty table with these columns. */
  public Table(List<Column> columns) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a table needs a column");
    }
    this.columns = List.copyOf(columns);
  }

  /** The columns, in order. */
  public List<Column> columns() {
    return columns;
  }

  /** The rows added so far, in order. */
  public List<List<String>> rows() {
    return List.copyOf(rows);
  }

  /**
   * Adds a row.
   *
   * @throws IllegalArgumentException if it has not one cell per column
   */
  public void add(List<String> row) {
    if (row.size() != columns.size()) {
      throw new IllegalArgumentException(
          "a row of " + row.size() + " cells in a table of " + columns.size() + " columns");
    }
    rows.add(List.copyOf(row));
  }

  /** The whole table in {@code format}. */
  public String render(Format format) {
    StringBuilder out = new StringBuilder(format.header(columns));
    rows.forEach(r -> out.append(format.row(r)));
    return out.toString();
  }
}
