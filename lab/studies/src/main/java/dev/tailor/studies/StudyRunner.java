package dev.tailor.studies;

import dev.tailor.sweep.PointProgress;
import java.io.PrintWriter;
import java.util.List;

/**
 * Runs a study's points in order and writes its table as the rows come, so that a long study shows
 * its first rows while the rest still run.
 */
public final class StudyRunner {

  private final Table.Format format;
  private final PrintWriter out;
  private PrintWriter log;
  private PointProgress progress;

  /** A runner writing tables in {@code format} to {@code out}. */
  public StudyRunner(Table.Format format, PrintWriter out) {
    this.format = format;
    this.out = out;
  }

  /**
   * From now on, also writes each row to {@code log} when it is done, with how many of {@code
   * points} (over every table to come) are done and about how long the rest will take.
   */
  public StudyRunner logging(PrintWriter log, int points) {
    this.log = log;
    this.progress = new PointProgress(points);
    return this;
  }

  /** Runs every point of {@code study}, writing each row when it is done; returns the table. */
  public <P> Table run(Study<P> study) {
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
      if (log != null) {
        log.printf("  %s (%s)%n", String.join(" | ", row), progress.pointDone());
        log.flush();
      }
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
