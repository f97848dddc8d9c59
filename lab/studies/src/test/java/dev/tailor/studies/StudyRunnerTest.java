package dev.tailor.studies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class StudyRunnerTest {

  /** Squares of its points, under a title. */
  private static final class Squares implements Study<Integer> {
    @Override
    public String title() {
      return "squares";
    }

    @Override
    public List<Table.Column> columns() {
      return List.of(Table.Column.number("n"), Table.Column.number("n^2"));
    }

    @Override
    public List<Integer> points() {
      return List.of(2, 3);
    }

    @Override
    public List<String> run(Integer n) {
      return List.of("" + n, "" + n * n);
    }
  }

  @Test
  void writesTheTitleTheHeaderAndARowPerPointInOrder() {
    StringWriter out = new StringWriter();
    Table t = new StudyRunner(Table.Format.MARKDOWN, new PrintWriter(out)).run(new Squares());
    assertEquals(List.of(List.of("2", "4"), List.of("3", "9")), t.rows());
    assertEquals(
        String.join(
            System.lineSeparator(),
            "",
            "## squares",
            "",
            "| n | n^2 |",
            "|---:|---:|",
            "| 2 | 4 |",
            "| 3 | 9 |",
            ""),
        out.toString());
  }

  @Test
  void csvNamesTheTableInACommentLineAndLogsEachRowWithItsProgress() {
    StringWriter out = new StringWriter();
    StringWriter log = new StringWriter();
    StudyRunner runner =
        new StudyRunner(Table.Format.CSV, new PrintWriter(out)).logging(new PrintWriter(log), 2);
    runner.run(new Squares());
    runner.line("a verdict");
    assertEquals(
        String.join(
            System.lineSeparator(), "", "# squares", "n,n^2", "2,4", "3,9", "# a verdict", ""),
        out.toString());
    assertTrue(log.toString().contains("  3 | 9 (point 2 of 2, the last)"), log.toString());
  }
}
