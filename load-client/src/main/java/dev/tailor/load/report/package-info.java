/**
 * Reports of sweeps, real or simulated: per-point JSON and .hgrm, a CSV, a Markdown summary and PNG
 * plots.
 */
package dev.tailor.load.report;
