package dev.tailor.studies;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Runs a study's points in order and writes its table as the rows come, so that a long study shows
 * its first rows while the rest still run.
 */
public final class StudyRunner {

  private final Table.Format format;
  private final PrintWriter out;

  /** A runner writing tables in {@code format} to {@code out}. */
  public StudyRunner(Table.Format format, PrintWriter out) {
    this.format = format;
    this.out = out;
  }

  /** The format tables are written in. */
  public Table.Format format() {
    return format;
  }

  /** Runs every point of {@code study}, writing each row when it is done; returns the table. */
  public <P> Table run(Study<P> study) {
    return run(study, (point, row) -> {});
  }

  /**
   * Runs every point of {@code study}, writing each row when it is done and then telling {@code
   * done} of it; returns the table.
   */
  public <P> Table run(Study<P> study, BiConsumer<? super P, List<String>> done) {
    Table table = new Table(study.columns());
    if (study.title() != null) {
      title(study.title());
    }
    out.print(format.header(table.columns()));
    out.flush();
    for (P point : study.points()) {
      List<String> row = study.run(point);
      table.add(row);
      out.print(format.row(row));
      out.flush();
      done.accept(point, row);
    }
    return table;
  }

  /** A table's title: a Markdown heading, a {@code #} line in CSV. */
  private void title(String title) {
    out.print(
        format == Table.Format.MARKDOWN
            ? String.format("%n## %s%n%n", title)
            : String.format("%n# %s%n", title));
    out.flush();
  }

  /** A line of text between tables, such as a verdict; a {@code #} line in CSV unless blank. */
  public void line(String text) {
    out.println(format == Table.Format.MARKDOWN || text.isBlank() ? text : "# " + text);
    out.flush();
  }
}
