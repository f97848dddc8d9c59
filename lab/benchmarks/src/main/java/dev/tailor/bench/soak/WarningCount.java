package dev.tailor.bench.soak;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Counts the warnings Tailor's loggers write during the soak, by logger, and keeps them off the
 * console: the soak provokes them, and its report says how many there were.
 */
final class WarningCount extends Handler implements AutoCloseable {
  private final Logger tailor = Logger.getLogger("dev.tailor");
  private final boolean useParent;
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  WarningCount() {
    useParent = tailor.getUseParentHandlers();
    tailor.setUseParentHandlers(false);
    tailor.addHandler(this);
  }

  @Override
  public void publish(LogRecord r) {
    if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
      String name = r.getLoggerName();
      String simple = name == null ? "?" : name.substring(name.lastIndexOf('.') + 1);
      counts.computeIfAbsent(simple, k -> new LongAdder()).increment();
    }
  }

  Map<String, Long> byLogger() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    tailor.removeHandler(this);
    tailor.setUseParentHandlers(useParent);
  }
}
