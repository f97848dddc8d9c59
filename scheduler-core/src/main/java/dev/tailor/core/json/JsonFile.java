package dev.tailor.core.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Reading and writing the project's JSON files: a read names the file when it is not JSON; a write
 * goes to a temporary file beside the target and is then moved over it, so that a reader never sees
 * half a file and a crash never leaves one.
 */
public final class JsonFile {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonFile() {}

  /**
   * Reads a file's JSON tree.
   *
   * @throws IOException naming the file if it cannot be read or is not JSON
   */
  public static JsonNode readTree(Path file) throws IOException {
    try {
      return JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IOException(file + ": not readable JSON: " + e.getMessage(), e);
    }
  }

  /** Writes a value (a record, a bean or a tree) as indented JSON, atomically. */
  public static void writeAtomically(Path file, Object value) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      JSON.writeValue(tmp.toFile(), value);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** The shared mapper, for converting trees to values. */
  public static ObjectMapper mapper() {
    return JSON;
  }
}
