/**
 * What runs measure: per-request records, run metrics (HdrHistograms, degree distributions), and
 * the point results real replays and simulations both write.
 */
package dev.tailor.core.metrics;
