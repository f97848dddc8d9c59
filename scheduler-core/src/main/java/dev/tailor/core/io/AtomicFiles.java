package dev.tailor.core.io;

import dev.tailor.core.Internal;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The one way Tailor writes a file or installs a directory: write beside the target, force the
 * bytes to disk, move into place, then force the directory entry. A reader sees the old file or the
 * new one, never half of one; after a crash or a power loss the target is whole, old or new; and on
 * failure the old target is left intact and no temporary file remains.
 *
 * <p>A new file gets the permissions any new file gets (the process's umask applies, as with {@link
 * Files#write}), not the owner-only permissions of {@link Files#createTempFile}, so that a server
 * running as another user can read a rebuilt table. A replaced file keeps its permissions.
 *
 * <p>Temporary files are hidden siblings named {@code .TARGET.PURPOSE-PID-RANDOM.tmp}, after the
 * target and the process writing them. A writer killed before its move leaves its temporary file
 * behind; the next file installed over the same target deletes every such file whose process is
 * gone and that is older than that write, and no other file. A process is judged gone by its id as
 * this process sees it, so a directory that processes of another host or container write to the
 * same target at the same time may lose a live writer's temporary file: that write then fails with
 * an exception and the target keeps its old content.
 */
@Internal
public final class AtomicFiles {

  /** Writes a file's content; see {@link #write}. */
  @FunctionalInterface
  public interface Content {
    /** Writes the content to {@code out}, which may but need not be closed. */
    void writeTo(OutputStream out) throws IOException;
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private static final System.Logger LOG = System.getLogger(AtomicFiles.class.getName());

  private static final long PID = ProcessHandle.current().pid();

  private static final Pattern PURPOSE = Pattern.compile("[a-z]+");

  private AtomicFiles() {}

  /**
   * Writes {@code target} atomically and durably with what {@code content} writes; if it throws,
   * the old target (if any) is untouched and nothing else is left behind.
   */
  public static void write(Path target, Content content) throws IOException {
    FileTime started = FileTime.from(Instant.now());
    Path tmp = sibling(target, "writing");
    try {
      try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        BufferedOutputStream buffered =
            new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
        content.writeTo(new UnclosableStream(buffered));
        buffered.flush();
        channel.force(true);
      }
      install(tmp, target, started);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Writes {@code text} as UTF-8 to {@code target}, like {@link #write}. */
  public static void writeString(Path target, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    write(target, out -> out.write(bytes));
  }

  /**
   * A fresh, empty, hidden file in the target's directory, named after it, for content that is
   * written some other way and then handed to {@link #moveIntoPlace}. Unlike {@link
   * Files#createTempFile}, it gets the permissions any new file gets.
   *
   * @param purpose a lowercase word saying what the file is for, e.g. {@code writing}
   * @throws IllegalArgumentException if {@code purpose} is not a lowercase word
   */
  public static Path sibling(Path target, String purpose) throws IOException {
    Path dir = parent(target);
    Files.createDirectories(dir);
    while (true) {
      Path tmp = dir.resolve(hiddenName(target, purpose));
      try {
        return Files.createFile(tmp);
      } catch (FileAlreadyExistsException e) {
        // Another writer drew the same name; draw again.
      }
    }
  }

  /**
   * Like {@link #sibling}, a fresh empty directory beside the target.
   *
   * @throws IllegalArgumentException if {@code purpose} is not a lowercase word
   */
  public static Path siblingDirectory(Path target, String purpose) throws IOException {
    Path dir = parent(target);
    Files.createDirectories(dir);
    while (true) {
      Path tmp = dir.resolve(hiddenName(target, purpose));
      try {
        return Files.createDirectory(tmp);
      } catch (FileAlreadyExistsException e) {
        // Another writer drew the same name; draw again.
      }
    }
  }

  private static String hiddenName(Path target, String purpose) {
    if (!PURPOSE.matcher(purpose).matches()) {
      throw new IllegalArgumentException("purpose " + purpose + ": expected a lowercase word");
    }
    return "."
        + target.getFileName()
        + "."
        + purpose
        + "-"
        + PID
        + "-"
        + Long.toUnsignedString(RANDOM.nextLong(), 36)
        + ".tmp";
  }

  /**
   * Moves a finished file or directory into place: forces its content (every file of a directory)
   * to disk, moves it over the target, atomically when the file system can, and forces the
   * directory entry. A file replacing another keeps the other's permissions. The caller deletes
   * {@code tmp} if this fails.
   */
  public static void moveIntoPlace(Path tmp, Path target) throws IOException {
    FileTime started = FileTime.from(Instant.now());
    syncTree(tmp);
    install(tmp, target, started);
  }

  /**
   * Replaces the directory {@code target} (if any) with the finished directory {@code tmp}: forces
   * the new tree to disk, moves the old one aside, the new one in, then deletes the old one.
   * Readers see the old tree or the new one, never a mix; but Java cannot exchange two directories
   * in one step, so between the two moves there is no tree at {@code target}, and a crash there
   * leaves the old tree beside it under a hidden {@code .TARGET.old-*.tmp} name.
   */
  public static void replaceDirectory(Path tmp, Path target) throws IOException {
    syncTree(tmp);
    Path old = null;
    if (Files.exists(target)) {
      old = siblingDirectory(target, "old");
      Files.delete(old);
      Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
    }
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target);
    }
    syncDirectory(parent(target));
    if (old != null) {
      deleteTree(old);
    }
  }

  /** Deletes a file or a directory with everything below it; nothing if it does not exist. */
  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /**
   * Moves a file whose content is already on disk over the target, forces the entry, then deletes
   * the temporary files that writers of the same target killed before {@code started} left.
   */
  private static void install(Path tmp, Path target, FileTime started) throws IOException {
    keepPermissions(target, tmp);
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
    syncDirectory(parent(target));
    deleteStale(target, started);
  }

  /**
   * Deletes the temporary files of {@code target} ({@link #hiddenName}) that are regular files,
   * were last modified before {@code started}, and whose writing process is gone. Best effort: the
   * target is already in place, so a file that cannot be listed or deleted is left for next time.
   */
  private static void deleteStale(Path target, FileTime started) {
    // The purpose is a lowercase word, so the temporary files of "t" never match those of "t.json".
    Pattern ours =
        Pattern.compile(
            Pattern.quote("." + target.getFileName() + ".") + "[a-z]+-([0-9]+)-[0-9a-z]+\\.tmp");
    List<Path> stale = new ArrayList<>();
    try (DirectoryStream<Path> siblings = Files.newDirectoryStream(parent(target))) {
      for (Path p : siblings) {
        Matcher m = ours.matcher(p.getFileName().toString());
        if (m.matches() && isGone(m.group(1))) {
          stale.add(p);
        }
      }
    } catch (IOException | DirectoryIteratorException e) {
      LOG.log(System.Logger.Level.DEBUG, () -> "cannot list the stale files of " + target, e);
    }
    for (Path p : stale) {
      try {
        BasicFileAttributes a =
            Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isRegularFile() && a.lastModifiedTime().compareTo(started) < 0) {
          Files.deleteIfExists(p);
          LOG.log(System.Logger.Level.DEBUG, () -> "deleted a killed writer's " + p);
        }
      } catch (IOException e) {
        LOG.log(System.Logger.Level.DEBUG, () -> "left " + p, e);
      }
    }
  }

  /** Whether the process {@code pid} (as written in a temporary file's name) has ended. */
  private static boolean isGone(String pid) {
    long id;
    try {
      id = Long.parseLong(pid);
    } catch (NumberFormatException e) {
      return false; // not a name this class wrote
    }
    return id != PID && ProcessHandle.of(id).map(h -> !h.isAlive()).orElse(true);
  }

  /**
   * Gives {@code tmp} the permissions of the regular file it replaces, as writing the file in place
   * would have kept them.
   */
  private static void keepPermissions(Path target, Path tmp) throws IOException {
    if (!Files.isRegularFile(target) || !Files.isRegularFile(tmp)) {
      return;
    }
    PosixFileAttributeView from = Files.getFileAttributeView(target, PosixFileAttributeView.class);
    PosixFileAttributeView to = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
    if (from != null && to != null) {
      to.setPermissions(from.readAttributes().permissions());
    }
  }

  /** Forces a file, or every file and directory of a tree, to disk. */
  private static void syncTree(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      sync(root);
      return;
    }
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(root)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList(); // children before their directory
    }
    for (Path p : paths) {
      if (Files.isDirectory(p)) {
        syncDirectory(p);
      } else if (Files.isRegularFile(p)) {
        sync(p);
      }
    }
  }

  private static void sync(Path file) throws IOException {
    // Opened for writing where allowed: some platforms refuse to force a read-only channel, while
    // a read-only file (one a tool unpacked, say) can only be opened for reading.
    try (FileChannel channel = open(file)) {
      channel.force(true);
    }
  }

  private static FileChannel open(Path file) throws IOException {
    try {
      return FileChannel.open(file, StandardOpenOption.WRITE);
    } catch (AccessDeniedException e) {
      return FileChannel.open(file, StandardOpenOption.READ);
    }
  }

  private static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some platforms (Windows) cannot open or force a directory; there the move is as durable as
      // the platform makes it, and there is nothing better to do.
    }
  }

  private static Path parent(Path target) {
    return target.toAbsolutePath().getParent();
  }

  /**
   * Passes writes through but turns {@code close} into {@code flush}, so that content which closes
   * its stream (as Jackson does by default) does not close the channel before it is forced.
   */
  private static final class UnclosableStream extends FilterOutputStream {
    UnclosableStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      out.flush();
    }
  }
}
