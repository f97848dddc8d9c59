package dev.tailor.core.table;

import dev.tailor.core.Internal;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The digest a table records of the profile it was built from. */
@Internal
public final class Digests {

  private Digests() {}

  /** {@code sha256:} and the lower-case hex SHA-256 of the file's bytes. */
  public static String sha256(Path file) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    }
    return "sha256:" + HexFormat.of().formatHex(md.digest());
  }
}
