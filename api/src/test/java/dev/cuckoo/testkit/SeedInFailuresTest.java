package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class SeedInFailuresTest {
  private final SeedInFailures extension = new SeedInFailures();

  @Test
  void anAssertionFailureCarriesTheSeedAndKeepsItsCause() {
    AssertionError failure = new AssertionError("key 7 lost");
    AssertionError thrown = assertThrows(AssertionError.class, () -> extension.handleTestExecutionException(null, failure));
    assertEquals("key 7 lost (" + TestSeed.rerun() + ")", thrown.getMessage());
    assertSame(failure, thrown.getCause());
  }

  @Test
  void aFailureThatHasTheSeedAndAnyOtherExceptionPassThrough() {
    AssertionError seeded = new AssertionError("key 7 lost; " + TestSeed.rerun());
    assertSame(seeded, assertThrows(AssertionError.class, () -> extension.handleTestExecutionException(null, seeded)));
    UncheckedIOException io = new UncheckedIOException(new java.io.IOException("disk"));
    assertSame(io, assertThrows(UncheckedIOException.class, () -> extension.handleTestExecutionException(null, io)));
  }
}
