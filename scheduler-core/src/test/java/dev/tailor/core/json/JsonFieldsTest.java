package dev.tailor.core.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonFieldsTest {

  @TempDir Path tmp;

  private JsonNode tree(String json) throws IOException {
    return JsonFile.mapper().readTree(json);
  }

  @Test
  void longsChecksTheMinimumAndNamesTheElement() throws IOException {
    JsonFields fields = new JsonFields(Path.of("profile.json"));
    JsonNode request = tree("{\"unitNanos\": [5, 0, 7]}");
    assertArrayEquals(new long[] {5, 0, 7}, fields.longs(request, "unitNanos", "requests[3].", 0));
    IOException e =
        assertThrows(
            IOException.class, () -> fields.longs(request, "unitNanos", "requests[3].", 1));
    assertEquals("profile.json: requests[3].unitNanos[1]: must be >= 1, got 0", e.getMessage());
  }

  @Test
  void longsRejectsNumbersOutsideTheLongRange() throws IOException {
    JsonFields fields = new JsonFields(Path.of("profile.json"));
    JsonNode node = tree("{\"unitNanos\": [1, 123456789012345678901234567890]}");
    IOException e = assertThrows(IOException.class, () -> fields.longs(node, "unitNanos", "", 0));
    assertTrue(e.getMessage().startsWith("profile.json: unitNanos[1]: expected a whole number"));
  }

  @Test
  void longsRejectsFractionsAndNonArrays() throws IOException {
    JsonFields fields = new JsonFields(Path.of("t.json"));
    JsonNode node = tree("{\"a\": [1.5], \"b\": 3}");
    IOException fraction = assertThrows(IOException.class, () -> fields.longs(node, "a", "x.", 0));
    assertTrue(fraction.getMessage().startsWith("t.json: x.a[0]: expected a whole number"));
    IOException scalar = assertThrows(IOException.class, () -> fields.longs(node, "b", "x.", 0));
    assertEquals("t.json: x.b: expected an array", scalar.getMessage());
  }

  @Test
  void smallIntegerRejectsValuesBeyondInt() throws IOException {
    JsonFields fields = new JsonFields(Path.of("table.json"));
    JsonNode node = tree("{\"cores\": 4294967297}");
    IOException e =
        assertThrows(IOException.class, () -> fields.smallInteger(node, "cores", "inputs.", 1));
    assertEquals("table.json: inputs.cores: must be <= 2147483647, got 4294967297", e.getMessage());
  }

  @Test
  void smallIntegersNeverNarrowAnElement() throws IOException {
    JsonFields fields = new JsonFields(Path.of("table.json"));
    JsonNode node = tree("{\"degrees\": [1, 4294967298], \"d\": [1, 2]}");
    assertArrayEquals(new int[] {1, 2}, fields.smallIntegers(node, "d", "inputs.", 1));
    IOException e =
        assertThrows(IOException.class, () -> fields.smallIntegers(node, "degrees", "inputs.", 1));
    assertEquals(
        "table.json: inputs.degrees[1]: must be <= 2147483647, got 4294967298", e.getMessage());
  }

  @Test
  void aBadNumberIsShownAsWritten() throws IOException {
    JsonFields fields = new JsonFields(Path.of("t.json"));
    JsonNode node = tree("{\"a\": \"7\", \"b\": [0.5], \"c\": [-1], \"d\": true}");
    assertEquals(
        "t.json: x.a: expected a whole number >= 0, got \"7\"",
        assertThrows(IOException.class, () -> fields.integer(node, "a", "x.", 0)).getMessage());
    assertEquals(
        "t.json: x.missing: expected a finite number, got nothing",
        assertThrows(IOException.class, () -> fields.number(node, "missing", "x.")).getMessage());
    assertEquals(
        "t.json: x.d: expected a finite number, got true",
        assertThrows(IOException.class, () -> fields.number(node, "d", "x.")).getMessage());
    assertEquals(
        "t.json: x.c[0]: expected a finite number > 0, got -1",
        assertThrows(IOException.class, () -> fields.positiveNumbers(node, "c", "x."))
            .getMessage());
    assertEquals(
        "t.json: x.c[0]: expected a finite number >= 0, got -1",
        assertThrows(IOException.class, () -> fields.nonNegativeNumbers(node, "c", "x."))
            .getMessage());
  }

  @Test
  void aWrongTypeNamesFileFieldAndExpectation() throws IOException {
    JsonFields fields = new JsonFields(Path.of("point.json"));
    JsonNode node = tree("{\"saturated\": \"yes\", \"rows\": [1]}");
    assertEquals(
        "point.json: saturated: expected true or false",
        assertThrows(IOException.class, () -> fields.bool(node, "saturated", "")).getMessage());
    assertEquals(
        "point.json: rows[0]: expected an object",
        assertThrows(IOException.class, () -> fields.objectAt(node.get("rows"), 0, "rows[0]"))
            .getMessage());
  }

  @Test
  void aMalformedFileReportsLineAndColumnWithoutJacksonsSource() throws IOException {
    Path file = Files.writeString(tmp.resolve("table.json"), "{\n  \"a\": 1,\n  \"b\": ]\n}\n");
    IOException e = assertThrows(IOException.class, () -> JsonFile.readTree(file));
    assertTrue(e.getMessage().startsWith(file + ": line 3, column 8: "), e.getMessage());
    assertTrue(e.getMessage().contains("Unexpected character"), e.getMessage());
    assertFalse(e.getMessage().contains("[Source:"), e.getMessage());
    assertFalse(e.getMessage().contains("reference chain"), e.getMessage());
  }

  @Test
  void writtenJsonReadsBack() throws IOException {
    Path file = tmp.resolve("out").resolve("value.json");
    JsonFile.writeAtomically(file, java.util.Map.of("load", 3));
    JsonFields fields = new JsonFields(file);
    assertEquals(3, fields.integer(fields.root(JsonFile.readTree(file)), "load", "", 1));
  }
}
