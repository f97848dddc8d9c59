/**
 * The Policy SPI (policies answer questions about read-only views of a request and the system,
 * never touching threads or clocks), the registry that finds them by name, the typed identity that
 * names one ({@link dev.tailor.core.policy.PolicySpec}), and the built-in policies.
 */
package dev.tailor.core.policy;
