package dev.tailor.core;

/**
 * The body of a request: the code that runs on the request's own thread. It may hand work units to
 * the scheduler through its {@link RequestContext}; the scheduler releases them to helper threads
 * as the request's degree allows.
 *
 * @param <T> the result type
 */
@Internal
@FunctionalInterface
public interface RequestBody<T> {

  /** Runs the request. Whatever it throws fails the request (and only the request). */
  T run(RequestContext context) throws Exception;
}
