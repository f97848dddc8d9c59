package dev.tailor.core.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tailor.core.json.JsonFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Edits one field of a good table file, and checks that a reader refuses the result. */
final class TableEdits {

  /** Reads a table file, as {@code IntervalTable::read} does. */
  @FunctionalInterface
  interface Reader {
    Object read(Path file) throws IOException;
  }

  private final Path good;
  private final Reader reader;

  /** Edits of the table in {@code good}, read back by {@code reader}. */
  TableEdits(Path good, Reader reader) {
    this.good = good;
    this.reader = reader;
  }

  /**
   * Sets the value at {@code pointer} (a JSON pointer such as {@code /rows/1/intervalsNanos/0}) to
   * {@code json}, writes the result beside the good file, and returns that file.
   */
  Path with(String pointer, String json) throws IOException {
    JsonNode root = JsonFile.readTree(good);
    JsonPointer at = JsonPointer.compile(pointer);
    JsonNode parent = root.at(at.head());
    JsonNode value = JsonFile.mapper().readTree(json);
    if (parent instanceof ObjectNode o) {
      o.set(at.last().getMatchingProperty(), value);
    } else if (parent instanceof ArrayNode a) {
      a.set(at.last().getMatchingIndex(), value);
    } else {
      throw new AssertionError("no parent for " + pointer + " in " + good);
    }
    Path edited = good.resolveSibling("edited-" + good.getFileName());
    Files.writeString(edited, JsonFile.mapper().writeValueAsString(root));
    return edited;
  }

  /**
   * Asserts that the table with {@code json} at {@code pointer} is refused with exactly {@code
   * FILE: expected}.
   */
  void refused(String pointer, String json, String expected) throws IOException {
    Path edited = with(pointer, json);
    IOException e = assertThrows(IOException.class, () -> reader.read(edited), pointer);
    assertEquals(edited + ": " + expected, e.getMessage(), pointer + " = " + json);
  }
}
