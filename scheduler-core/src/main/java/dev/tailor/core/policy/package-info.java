/**
 * The Policy SPI (policies answer questions about read-only views of a request and the system,
 * never touching threads or clocks), the registry that finds them by name, and the baseline and
 * Few-to-Many policies.
 */
package dev.tailor.core.policy;
