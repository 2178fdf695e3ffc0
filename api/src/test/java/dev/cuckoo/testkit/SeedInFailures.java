package dev.cuckoo.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Adds {@link TestSeed#rerun()} to every assertion failure of the tests it extends ({@code
 * @ExtendWith(SeedInFailures.class)}), for a test class whose randomness comes from {@link
 * TestSeed} and whose many assertions would otherwise each have to carry the seed. The failure
 * is rethrown as an {@link AssertionError} whose message ends with the seed and whose cause is
 * the original failure; anything else passes through unchanged.
 */
public final class SeedInFailures implements TestExecutionExceptionHandler {
  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
    if (failure instanceof AssertionError && !String.valueOf(failure.getMessage()).contains(TestSeed.rerun())) {
      throw new AssertionError(failure.getMessage() + " (" + TestSeed.rerun() + ")", failure);
    }
    throw failure;
  }
}
