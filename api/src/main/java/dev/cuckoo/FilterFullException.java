package dev.cuckoo;

/**
 * What a {@link CuckooFilters#toFilter collect} into a full filter throws. Its constructor is not
 * public on purpose: a fork-join pool rethrows a worker's exception in the joining thread as a new
 * exception of the same class built through a public constructor taking the cause, whose message
 * is then the cause's {@code toString()} ({@code "java.lang.IllegalStateException: the filter
 * refused ..."}); an exception it cannot rebuild is rethrown as it is, with its own message.
 */
final class FilterFullException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  FilterFullException(String message) {
    super(message);
  }
}
