package dev.tailor.lucene;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tailor.core.io.AtomicFiles;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes every sample of a profile, one JSON line per query and degree ({@code id}, {@code degree},
 * {@code batch}, {@code samples} in nanoseconds), for studying where a profile's noise comes from.
 * Lines go to a temporary sibling that replaces the file on close, so a file is never half-written.
 * A writer opened on no file writes nothing.
 */
final class RawSampleWriter implements Closeable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Path temp;
  private final BufferedWriter out;

  private RawSampleWriter(Path file, Path temp, BufferedWriter out) {
    this.file = file;
    this.temp = temp;
    this.out = out;
  }

  static RawSampleWriter open(Path file) throws IOException {
    if (file == null) {
      return new RawSampleWriter(null, null, null);
    }
    Path temp = AtomicFiles.sibling(file, "samples");
    return new RawSampleWriter(file, temp, Files.newBufferedWriter(temp));
  }

  void write(String id, QuerySamples samples, int degrees) throws IOException {
    if (out == null) {
      return;
    }
    for (int d = 1; d <= degrees; d++) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("id", id);
      line.put("degree", d);
      line.put("batch", samples.batch());
      line.put("samples", samples.samples(d));
      out.write(JSON.writeValueAsString(line));
      out.newLine();
    }
  }

  @Override
  public void close() throws IOException {
    if (out == null) {
      return;
    }
    out.close();
    AtomicFiles.moveIntoPlace(temp, file);
  }
}
