package dev.tailor.core;

import dev.tailor.core.policy.RequestView;

/**
 * Predicts a request's sequential time from what is known before it runs: TPC's predictor (Jeon et
 * al., ASPLOS'16, §3.1, after Kim et al., WSDM'15). The integration asks it once per request, on
 * the submitting thread, and attaches the answer as the request's {@link
 * RequestAttributes#predictedSequentialNanos()}; a policy reads it through {@link
 * RequestView#predictedSequentialNanos()} and the request's {@linkplain RequestView#isLong() long}
 * flag.
 *
 * <p>The scheduler core knows no query type and no model: the Lucene integration asks a {@code
 * Predictor<Query>}, and the {@code predictor} module supplies one over query features and a
 * gradient-boosted model. Without a predictor nothing is predicted, and a predicting policy treats
 * every request as short until its work says otherwise.
 *
 * <p>Implementations are thread-safe and cheap: a prediction is a small fraction of the request's
 * own time, and allocates little.
 *
 * @param <Q> what a request is predicted from, such as a Lucene {@code Query}
 */
@FunctionalInterface
public interface Predictor<Q> {

  /**
   * The predicted sequential time of {@code request} in nanoseconds, or {@link RequestView#UNKNOWN}
   * when it cannot say. Must not throw for a request it cannot predict.
   */
  long predictSequentialNanos(Q request);
}
