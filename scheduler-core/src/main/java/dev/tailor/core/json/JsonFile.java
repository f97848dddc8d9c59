package dev.tailor.core.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tailor.core.Internal;
import dev.tailor.core.io.AtomicFiles;
import java.io.CharConversionException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reading and writing the project's JSON files. A read that fails names the file and, for a syntax
 * error, the line and column; the fields of what was read are then checked with {@link JsonFields}.
 * A write goes through {@link AtomicFiles}, so that a reader never sees half a file and a crash
 * never leaves one.
 */
@Internal
public final class JsonFile {

  // Jackson would otherwise quote the source in every location ("[Source: ...]"); messages name
  // the file themselves.
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();

  private JsonFile() {}

  /**
   * Reads a file's JSON tree; an empty file reads as a missing node.
   *
   * @throws IOException if the file cannot be read (Java's own exception, naming the file), or is
   *     not JSON: then the message reads {@code FILE: line L, column C: what is wrong}, or {@code
   *     FILE: what is wrong} when it is not text
   */
  public static JsonNode readTree(Path file) throws IOException {
    try {
      return JSON.readTree(file.toFile());
    } catch (JsonProcessingException e) {
      throw syntaxError(file, e);
    } catch (CharConversionException e) {
      // Jackson guesses UTF-16 or UTF-32 from the first bytes and fails on an invalid character
      // with a message that names neither the file nor the line.
      throw new IOException(file + ": not UTF-8, UTF-16 or UTF-32 text: " + e.getMessage(), e);
    }
  }

  /**
   * A Jackson failure on {@code file} as an exception whose message names the file, the line and
   * column where known, and Jackson's own description without its location noise.
   */
  public static IOException syntaxError(Path file, JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String where =
        at == null || at.getLineNr() < 1
            ? ""
            : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
    return new IOException(file + ": " + where + e.getOriginalMessage(), e);
  }

  /** Writes a value (a record, a bean or a tree) as indented JSON, atomically and durably. */
  public static void writeAtomically(Path file, Object value) throws IOException {
    AtomicFiles.write(
        file,
        out -> {
          JSON.writeValue(out, value);
          out.write('\n');
        });
  }

  /** The shared mapper, for building trees and converting between trees and values. */
  public static ObjectMapper mapper() {
    return JSON;
  }
}
