package dev.tailor.core.io;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tailor.core.RequestContext;
import dev.tailor.core.Scheduler;
import dev.tailor.core.SchedulerInternals;
import dev.tailor.core.SchedulerListener;
import dev.tailor.core.metrics.RequestRecord;
import dev.tailor.core.policy.TailControlPolicy;
import dev.tailor.core.table.TableSource;
import dev.tailor.core.table.ThresholdTable;
import dev.tailor.measure.DemandProfile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM with SIGKILL ({@link Process#destroyForcibly()}) at random moments while it
 * replaces a table or a profile through their real writers ({@link LoopingWriter}), many times, and
 * checks after every kill that the file is one of the two versions, byte for byte and as its reader
 * reads it, and that at most the killed writer's own hidden temporary file remains (the next write
 * deletes it). While the table is rewritten and its writers killed, a tail-control policy in this
 * JVM watches the file, polling every millisecond, and a scheduler with that policy serves
 * requests: the watcher never rejects a file, every request sees a whole table, and every request
 * completes.
 *
 * <p>What this proves is atomicity, not durability after a power loss: a killed process loses
 * nothing that it wrote to the page cache, so the forces ({@code fsync}) of {@link AtomicFiles} are
 * not exercised here; only a power cut (or a file system that fakes one) would.
 *
 * <p>A kill comes after the child announced its n-th completed write (n random): at once, or once
 * the temporary file of a later write has a random share of its bytes, or once the file has been
 * replaced again ({@link Trigger}); so kills land before a write, while its bytes are written,
 * while they are forced, and just after the move. Each child warms up before it may write, while
 * the one before it runs, so that kills land in the writes of a warm JVM. The seed and the number
 * of kills per kind are system properties: {@code -Dtailor.kills=300 -Dtailor.kills.seed=7}.
 */
class KilledWriterTest {

  /** Kills per kind: each costs a JVM start (about 0.8 s of a core), hence few by default. */
  private static final int KILLS = Integer.getInteger("tailor.kills", 20);

  private static final long SEED = Long.getLong("tailor.kills.seed", 20261123L);

  /** The most writes a child completes before it is killed. */
  private static final int MAX_WRITES = 4;

  /** Seconds after which a silent child or a stuck request fails the test. */
  private static final long GUARD = 60;

  /** Without this, every reload of the watched table logs a line. */
  private static final Logger TABLE_LOG = Logger.getLogger(TableSource.class.getName());

  @TempDir Path dir;

  @Test
  void aKilledTableWriterLeavesAWholeTableAndTheWatchingSchedulerKeepsServing() throws Exception {
    Path file = Files.createDirectory(dir.resolve("data")).resolve("tc.json");
    ThresholdTable[] versions = {LoopingWriter.table(0), LoopingWriter.table(1)};
    versions[0].write(file);
    Level level = TABLE_LOG.getLevel();
    TABLE_LOG.setLevel(Level.WARNING);
    LongAdder completed = new LongAdder();
    Client client;
    Outcomes outcomes;
    try (TableSource<ThresholdTable> source =
            TableSource.watch(file, ThresholdTable::read, Duration.ofMillis(1));
        Scheduler scheduler =
            Scheduler.builder()
                .policy(TailControlPolicy.of(TailControlPolicy.Variant.TC, source))
                .workers(2)
                .listener(
                    new SchedulerListener() {
                      @Override
                      public void requestCompleted(RequestRecord record) {
                        completed.increment();
                      }
                    })
                .build()) {
      client = new Client(scheduler, source, versions);
      Thread serving = Thread.ofPlatform().name("client").start(client::run);
      try {
        outcomes =
            killRepeatedly(
                LoopingWriter.Kind.TABLE,
                file,
                client::burst,
                version -> {
                  ThresholdTable read = ThresholdTable.read(file);
                  assertTrue(isVersion(read, versions[version]), "the reader reads the version");
                  assertTrue(
                      source.reload(), "the watcher takes the file: " + source.lastProblem());
                  assertTrue(isVersion(source.current(), versions[version]), "and serves it");
                });
      } finally {
        client.stop();
        serving.join(SECONDS.toMillis(GUARD));
      }
      assertEquals(0, source.rejected(), "files the watcher rejected: " + source.lastProblem());
      scheduler.shutdown();
      assertTrue(scheduler.awaitTermination(GUARD, SECONDS));
    } finally {
      TABLE_LOG.setLevel(level);
    }
    assertEquals(List.of(), List.copyOf(client.problems));
    assertTrue(client.submitted.get() > 0, "the scheduler served requests during the kills");
    assertEquals(client.submitted.get(), completed.sum(), "every request completed once");
    System.out.println("table: " + outcomes + "; requests served meanwhile: " + client.submitted);
  }

  @Test
  void aKilledProfileWriterLeavesAWholeProfile() throws Exception {
    Path file = Files.createDirectory(dir.resolve("data")).resolve("profile.json");
    LoopingWriter.Kind.PROFILE.write(0, file);
    Outcomes outcomes =
        killRepeatedly(
            LoopingWriter.Kind.PROFILE,
            file,
            () -> {},
            version -> {
              DemandProfile read = DemandProfile.read(file);
              assertEquals(LoopingWriter.stamp(version), read.environment().takenAt());
              assertEquals(
                  LoopingWriter.profile(version).requests().size(), read.requests().size());
            });
    System.out.println("profile: " + outcomes);
  }

  /** A check of the file once its writer is dead, given the version it holds. */
  @FunctionalInterface
  private interface Check {
    void check(int version) throws Exception;
  }

  /**
   * Starts a writer, kills it at a random moment, checks what it left, and again: {@link #KILLS}
   * times.
   */
  private Outcomes killRepeatedly(LoopingWriter.Kind kind, Path file, Runnable onWrite, Check check)
      throws Exception {
    byte[][] expected = new byte[2][];
    for (int v = 0; v < 2; v++) {
      Path reference = dir.resolve("reference").resolve(kind + "-" + v);
      kind.write(v, reference);
      expected[v] = Files.readAllBytes(reference);
    }
    AtomicFiles.deleteTree(dir.resolve("reference"));
    Random random = new Random(SEED ^ kind.ordinal());
    Outcomes outcomes = new Outcomes();
    // Each writer starts and warms up while the one before it writes and is killed.
    Child next = Child.start(kind, file, dir.resolve("warmup").resolve("0.json"), onWrite);
    try {
      for (int kill = 0; kill < KILLS; kill++) {
        Child child = next;
        child.go();
        next =
            kill + 1 < KILLS
                ? Child.start(
                    kind, file, dir.resolve("warmup").resolve(kill + 1 + ".json"), onWrite)
                : null;
        int writes = 1 + random.nextInt(MAX_WRITES);
        Trigger trigger = Trigger.values()[random.nextInt(Trigger.values().length)];
        // From one byte of a later write's temporary file to all of them.
        long bytes =
            1 + (long) (random.nextDouble() * Math.min(expected[0].length, expected[1].length));
        String where = kind + " kill " + kill + " after " + writes + " writes and " + trigger;
        String seen;
        try {
          child.awaitWrites(writes);
          switch (trigger) {
            case ANNOUNCED -> {}
            case TEMPORARY_BYTES -> {
              where += " " + bytes;
              String ours = "." + file.getFileName() + ".writing-" + child.pid() + "-";
              awaitOrLaterWrite(child, () -> hasFileOf(file.getParent(), ours, bytes));
            }
            case TARGET_REPLACED -> {
              Object before = identity(file);
              awaitOrLaterWrite(child, () -> !identity(file).equals(before));
            }
          }
        } finally {
          seen = child.kill();
        }
        long announced = child.announced();
        byte[] content = Files.readAllBytes(file);
        int version = versionOf(content, expected);
        assertTrue(
            version >= 0,
            where + ": the file is neither version whole (" + content.length + " bytes)\n" + seen);
        List<Path> temporary = leftovers(file, child.pid(), where);
        int interrupted = (int) ((announced + 1) % 2); // the version of the write the kill hit
        outcomes.add(version == interrupted, temporary, expected[interrupted].length);
        check.check(version);
      }
    } finally {
      if (next != null) {
        next.kill();
      }
    }
    return outcomes;
  }

  /** The version {@code content} is, byte for byte, or -1. */
  private static int versionOf(byte[] content, byte[][] expected) {
    for (int v = 0; v < expected.length; v++) {
      if (Arrays.equals(content, expected[v])) {
        return v;
      }
    }
    return -1;
  }

  /**
   * The temporary files beside {@code file} after its writer {@code pid} was killed: at most its
   * own, since each write deletes those of writers killed before it, and nothing else.
   */
  private List<Path> leftovers(Path file, long pid, String where) throws IOException {
    List<Path> others = new ArrayList<>();
    try (Stream<Path> files = Files.list(file.getParent())) {
      for (Path p : files.filter(p -> !p.equals(file)).toList()) {
        others.add(p);
      }
    }
    String ours = "." + file.getFileName() + ".writing-" + pid + "-";
    assertTrue(
        others.size() <= 1 && others.stream().allMatch(p -> isNamed(p, ours)),
        where + ": left " + others + ", expected at most one file named " + ours + "*.tmp");
    return others;
  }

  private static boolean isNamed(Path p, String prefix) {
    String name = p.getFileName().toString();
    return name.startsWith(prefix) && name.endsWith(".tmp");
  }

  /** When a child is killed, after it announced its n-th write. */
  private enum Trigger {
    /** At once. */
    ANNOUNCED,
    /** Once the temporary file of a later write has a random share of its bytes. */
    TEMPORARY_BYTES,
    /** Once the file is no longer the one it announced: just after a move into place. */
    TARGET_REPLACED
  }

  /** A condition on the files, checked over and over. */
  @FunctionalInterface
  private interface Condition {
    boolean holds() throws IOException;
  }

  /**
   * Returns once {@code condition} holds, or once the child announced another write (it finished
   * the write before the condition was seen to hold: it is killed in the next one instead).
   */
  private static void awaitOrLaterWrite(Child child, Condition condition) throws IOException {
    long deadline = System.nanoTime() + SECONDS.toNanos(GUARD);
    while (!condition.holds() && !child.wroteMore()) {
      if (!child.process.isAlive() || System.nanoTime() > deadline) {
        throw new AssertionError("the writer stopped:\n" + child.output());
      }
      Thread.yield(); // the writers need the cores more than this loop
    }
  }

  /**
   * Whether a file of {@code dir} whose name starts with {@code prefix} has at least {@code bytes}
   * bytes.
   */
  private static boolean hasFileOf(Path dir, String prefix, long bytes) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.filter(p -> isNamed(p, prefix)).toList()) {
        try {
          if (Files.size(p) >= bytes) {
            return true;
          }
        } catch (NoSuchFileException e) {
          // Moved into place between the listing and now; a later write will grow another.
        }
      }
    }
    return false;
  }

  /**
   * What changes when a file is replaced or rewritten: its inode, modification time and size.
   *
   * @throws AssertionError if there is no file: a reader would have found none
   */
  private static Object identity(Path file) throws IOException {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return List.of(String.valueOf(a.fileKey()), a.lastModifiedTime(), a.size());
    } catch (NoSuchFileException e) {
      throw new AssertionError(file + " vanished while it was replaced", e);
    }
  }

  /**
   * The client of the watching scheduler: a burst of requests each time the writer announces a
   * write, each request checking that the table it is served is whole. Paced by the writer rather
   * than in a loop of its own, so that it leaves the writer a core.
   */
  private static final class Client {
    private static final int BURST = 20;

    final AtomicLong submitted = new AtomicLong();
    final Queue<String> problems = new ConcurrentLinkedQueue<>();
    private final Scheduler scheduler;
    private final TableSource<ThresholdTable> source;
    private final ThresholdTable[] versions;
    private final Semaphore bursts = new Semaphore(0);
    private volatile boolean serving = true;

    Client(Scheduler scheduler, TableSource<ThresholdTable> source, ThresholdTable[] versions) {
      this.scheduler = scheduler;
      this.source = source;
      this.versions = versions;
    }

    /** Asks for a burst of requests. */
    void burst() {
      bursts.release();
    }

    /** Stops after the burst under way. */
    void stop() {
      serving = false;
      bursts.release();
    }

    void run() {
      try {
        while (true) {
          bursts.acquire();
          if (!serving) {
            return;
          }
          List<CompletableFuture<Object>> requests = new ArrayList<>();
          for (int i = 0; i < BURST; i++) {
            submitted.incrementAndGet();
            requests.add(SchedulerInternals.submit(scheduler, this::request));
          }
          for (CompletableFuture<Object> r : requests) {
            r.get(GUARD, SECONDS);
          }
        }
      } catch (Exception e) {
        problems.add("a request failed: " + e);
      }
    }

    private Object request(RequestContext ctx) {
      ThresholdTable t = source.current();
      if (!isVersion(t, versions[0]) && !isVersion(t, versions[1])) {
        problems.add("served a table that is neither version: " + t);
      }
      for (int unit = 0; unit < 4; unit++) {
        int load = 1 + unit * 100;
        ctx.fork(() -> t.thresholdNanos(load));
      }
      ctx.joinUnits();
      return null;
    }
  }

  private static boolean isVersion(ThresholdTable t, ThresholdTable version) {
    return t.builtAt().equals(version.builtAt())
        && t.inputs().equals(version.inputs())
        && t.rows().equals(version.rows());
  }

  /** A {@link LoopingWriter} in a child JVM, and what it announced. */
  private static final class Child {
    private static final long EOF = -1;

    final Process process;
    private final BlockingQueue<Long> announcements = new LinkedBlockingQueue<>();
    private final StringBuilder output = new StringBuilder();
    private long announced;

    private final Runnable onWrite;

    private Child(Process process, Runnable onWrite) {
      this.process = process;
      this.onWrite = onWrite;
      Thread.ofPlatform().daemon().name("child-stdout").start(this::readAnnouncements);
    }

    /**
     * Starts a writer of {@code kind} to {@code file}, which warms up on {@code warmup} and then
     * waits for {@link #go}; {@code onWrite} runs at each write it announces.
     */
    static Child start(LoopingWriter.Kind kind, Path file, Path warmup, Runnable onWrite)
        throws IOException {
      String java = ProcessHandle.current().info().command().orElseThrow();
      return new Child(
          new ProcessBuilder(
                  java,
                  "-XX:TieredStopAtLevel=1",
                  "-XX:+UseSerialGC",
                  "-XX:-UsePerfData",
                  "-XX:CICompilerCount=1",
                  "-Xmx64m",
                  "-cp",
                  System.getProperty("java.class.path"),
                  LoopingWriter.class.getName(),
                  kind.name(),
                  file.toString(),
                  warmup.toString())
              .redirectErrorStream(true)
              .start(),
          onWrite);
    }

    long pid() {
      return process.pid();
    }

    /** The writes it announced, all of them once it is dead. */
    long announced() {
      return announced;
    }

    private void readAnnouncements() {
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.matches("[0-9]+")) {
            announcements.add(Long.parseLong(line));
            onWrite.run();
          } else {
            synchronized (output) {
              output.append(line).append('\n');
            }
          }
        }
      } catch (IOException e) {
        synchronized (output) {
          output.append(e).append('\n');
        }
      } finally {
        announcements.add(EOF);
      }
    }

    /** Returns once the child has announced {@code writes} completed writes. */
    void awaitWrites(long writes) throws InterruptedException {
      while (announced < writes) {
        Long n = announcements.poll(GUARD, SECONDS);
        if (n == null || n == EOF) {
          throw new AssertionError(
              "the writer announced "
                  + announced
                  + " writes, then "
                  + (n == null ? "fell silent" : "stopped")
                  + ":\n"
                  + output());
        }
        assertEquals(announced + 1, n, "writes are announced in order");
        announced = n;
      }
    }

    /** Lets it start writing the file. */
    void go() throws IOException {
      process.getOutputStream().write('\n');
      process.getOutputStream().flush();
    }

    /** Whether it announced a write that {@link #awaitWrites} has not taken yet. */
    boolean wroteMore() {
      return !announcements.isEmpty();
    }

    /** Kills the child with SIGKILL, waits for it, and takes its last announcements. */
    String kill() throws InterruptedException {
      process.destroyForcibly();
      assertTrue(process.waitFor(GUARD, SECONDS), "the writer died");
      while (true) {
        Long n = announcements.poll(GUARD, SECONDS);
        if (n == null) {
          throw new AssertionError("the killed writer's output never ended");
        }
        if (n == EOF) {
          break;
        }
        announced = n;
      }
      return output();
    }

    String output() {
      synchronized (output) {
        return output.toString();
      }
    }
  }

  /** Where the kills landed. */
  private static final class Outcomes {
    private int kills;
    private int afterTheMove;
    private int partialTemporary;
    private int wholeTemporary;
    private int noTemporary;

    /**
     * Counts one kill: whether the write in progress had already moved its file into place, else
     * how much of its temporary file it had written.
     */
    void add(boolean moved, List<Path> temporary, long size) throws IOException {
      kills++;
      if (moved) {
        afterTheMove++;
      } else if (temporary.isEmpty()) {
        noTemporary++;
      } else if (Files.size(temporary.get(0)) >= size) {
        wholeTemporary++;
      } else {
        partialTemporary++;
      }
    }

    @Override
    public String toString() {
      return kills
          + " kills survived: "
          + partialTemporary
          + " while writing the temporary file, "
          + wholeTemporary
          + " with it written (forcing or moving), "
          + afterTheMove
          + " after the move, before the announcement, "
          + noTemporary
          + " between writes";
    }
  }
}
