package dev.tailor.profiler;

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
 * Lines go to a hidden temporary sibling ({@link AtomicFiles#sibling}) that {@link #close()} forces
 * to disk and moves over the file, so a file is never half-written. A writer opened on no file
 * writes nothing.
 */
final class RawSampleWriter implements Closeable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Path temp;
  private final BufferedWriter out;
  private boolean failed;
  private boolean closed;

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
    try {
      return new RawSampleWriter(file, temp, Files.newBufferedWriter(temp));
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
  }

  /**
   * Writes the samples of query {@code id} at degrees {@code 1..degrees}. If this fails, {@link
   * #close()} leaves the file as it was.
   */
  void write(String id, QuerySamples samples, int degrees) throws IOException {
    if (out == null) {
      return;
    }
    try {
      for (int d = 1; d <= degrees; d++) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("id", id);
        line.put("degree", d);
        line.put("batch", samples.batch());
        line.put("samples", samples.samples(d));
        out.write(JSON.writeValueAsString(line));
        out.newLine();
      }
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
  }

  /**
   * Moves the lines written so far over the file, unless a {@link #write} failed; then, or if the
   * move fails, the file is left as it was. The temporary file never remains. A profiling run that
   * stops early (a query that throws) still installs the samples of the queries it profiled, as it
   * leaves the profile of those to resume from. Idempotent.
   */
  @Override
  public void close() throws IOException {
    if (out == null || closed) {
      return;
    }
    closed = true;
    try {
      out.close();
      if (!failed) {
        AtomicFiles.moveIntoPlace(temp, file);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
