/**
 * Reports of sweeps, real or simulated: per-point JSON and .hgrm, a CSV, a Markdown summary and PNG
 * plots, every file written atomically. The figures the CSV and the tables give are declared once,
 * as {@link dev.tailor.load.report.Metric}s.
 */
package dev.tailor.load.report;
