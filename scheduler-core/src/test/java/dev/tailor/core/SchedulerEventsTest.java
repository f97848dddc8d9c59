package dev.tailor.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scheduler's decisions show up as JFR events, as JDK Mission Control would read them. */
class SchedulerEventsTest {

  @Test
  void admissionsDegreeChangesAndCompletionsAreRecorded(@TempDir Path dir) throws Exception {
    ControlledPolicy policy = new ControlledPolicy();
    policy.degree = 1;
    Path file = dir.resolve("tailor.jfr");
    try (Recording recording = new Recording();
        Scheduler scheduler =
            Scheduler.builder().policy(policy).workers(2).quantum(Duration.ofMillis(1)).build()) {
      recording.enable("dev.tailor.Admission");
      recording.enable("dev.tailor.DegreeChange");
      recording.enable("dev.tailor.RequestCompleted");
      recording.start();
      scheduler
          .submit(
              ctx -> {
                policy.degree = 3;
                ctx.mayContinue(); // re-reads the degree now, on this thread
                return null;
              })
          .get(30, SECONDS);
      scheduler.close();
      recording.stop();
      recording.dump(file);
    }
    assertTrue(Files.size(file) > 0);
    Map<String, List<RecordedEvent>> byName =
        RecordingFile.readAllEvents(file).stream()
            .collect(Collectors.groupingBy(e -> e.getEventType().getName()));
    RecordedEvent admission = byName.get("dev.tailor.Admission").get(0);
    assertEquals(1, admission.getInt("degree"));
    RecordedEvent change = byName.get("dev.tailor.DegreeChange").get(0);
    assertEquals(1, change.getInt("from"));
    assertEquals(3, change.getInt("to"));
    RecordedEvent completed = byName.get("dev.tailor.RequestCompleted").get(0);
    assertEquals("COMPLETED", completed.getString("outcome"));
    assertEquals(3, completed.getInt("maxDegree"));
    assertEquals(admission.getLong("requestId"), completed.getLong("requestId"));
  }
}
