package dev.tailor.cli;

import java.nio.file.Path;

/**
 * Where the project lives and which JVM runs it, as the {@code ./tailor} script passes them ({@code
 * -Dtailor.home}, {@code -Dtailor.java}); falls back to the working directory and this JVM.
 */
final class TailorHome {

  private TailorHome() {}

  static Path root() {
    String home = System.getProperty("tailor.home");
    return Path.of(home != null ? home : ".").toAbsolutePath().normalize();
  }

  static String java() {
    String java = System.getProperty("tailor.java");
    if (java != null) {
      return java;
    }
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
