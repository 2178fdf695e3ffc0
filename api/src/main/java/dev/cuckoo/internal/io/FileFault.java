package dev.cuckoo.internal.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one way a failed write to a filter file or its journal is reported: an {@link IOException}
 * whose message names the file, what the library was doing, and the cause in words (for a full
 * disk, the space the write needed and what the file system has free), with the system's
 * exception as its cause. The JDK's own messages name the cause alone ("No space left on
 * device"), or the file alone ({@link AccessDeniedException}).
 */
public final class FileFault {
  private FileFault() {}

  /**
   * @param file the file the library was writing (or, for its journal, the filter file)
   * @param doing what it was doing, as "cannot ..." continues it: "write the journal FILE.journal"
   * @param bytes the bytes the write needed on disk, or 0 if it added none
   * @param cause what the system threw
   * @return the exception to throw: an {@link IOException} that says all of it
   */
  public static IOException of(Path file, String doing, long bytes, IOException cause) {
    if (cause instanceof NamedFault) {
      return cause; // said already, by a write further in
    }
    return new NamedFault(file + ": cannot " + doing + ": " + reason(file, bytes, cause), cause);
  }

  /**
   * @param e what a write threw
   * @return whether it says the file system is full
   */
  public static boolean isFull(IOException e) {
    String m = e.getMessage();
    return m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded")
        || m.contains("There is not enough space on the disk"));
  }

  private static String reason(Path file, long bytes, IOException cause) {
    if (isFull(cause)) {
      String free = "";
      try {
        Path folder = file.toAbsolutePath().getParent();
        free = ", and it has " + Files.getFileStore(folder).getUsableSpace() + " bytes free";
      } catch (IOException | RuntimeException unknown) {
        // the full disk is the news; what is free is a detail
      }
      return "the file system is full (the write needed " + bytes + " bytes" + free + ")";
    }
    if (cause instanceof AccessDeniedException denied) {
      return "permission denied" + (denied.getFile() == null ? "" : " on " + denied.getFile());
    }
    if (cause instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason() + (fs.getFile() == null ? "" : " (" + fs.getFile() + ")");
    }
    String m = cause.getMessage();
    return m == null || m.isEmpty() ? cause.getClass().getSimpleName() : m;
  }

  /** A failure already worded by {@link #of}: a caller further out does not word it again. */
  private static final class NamedFault extends IOException {
    private static final long serialVersionUID = 1L;

    NamedFault(String message, IOException cause) {
      super(message, cause);
    }
  }
}
