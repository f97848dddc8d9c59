package dev.tailor.studies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

  private static Table table() {
    Table t = new Table(List.of(Table.Column.number("cores"), Table.Column.text("best")));
    t.add(List.of("2", "work-stealing"));
    t.add(List.of("100,000", ""));
    return t;
  }

  @Test
  void markdownRightAlignsNumbersAndLeavesAnEmptyCellBare() {
    assertEquals(
        String.join(
            System.lineSeparator(),
            "| cores | best |",
            "|---:|---|",
            "| 2 | work-stealing |",
            "| 100,000 | |",
            ""),
        table().render(Table.Format.MARKDOWN));
  }

  @Test
  void csvQuotesAFieldWithACommaOrAQuote() {
    Table t = table();
    t.add(List.of("1", "say \"x\""));
    assertEquals(
        String.join(
            System.lineSeparator(),
            "cores,best",
            "2,work-stealing",
            "\"100,000\",",
            "1,\"say \"\"x\"\"\"",
            ""),
        t.render(Table.Format.CSV));
  }

  @Test
  void aRowMustHaveOneCellPerColumn() {
    assertThrows(IllegalArgumentException.class, () -> table().add(List.of("1")));
  }
}
