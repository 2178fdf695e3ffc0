package dev.cuckoo.testkit;

/**
 * For the tests of tables of many gigabytes in a variant's own module, which cannot name the
 * library's writes: {@link #during} has the files made while it runs sparse ({@link
 * SparseWrites}).
 */
public final class SparseFiles {
  private SparseFiles() {}

  /**
   * @param body what to run, making its new files sparse
   * @throws Throwable what it throws
   */
  public static void during(org.junit.jupiter.api.function.Executable body) throws Throwable {
    try (SparseWrites writes = new SparseWrites()) {
      writes.install();
      body.execute();
    }
  }
}
