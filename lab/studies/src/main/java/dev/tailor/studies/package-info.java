/**
 * The simulated studies the command line prints: each {@link dev.tailor.studies.Study} declares its
 * points and its columns, {@link dev.tailor.studies.StudyRunner} runs the points into rows, and one
 * {@link dev.tailor.studies.Table} renders every study as Markdown or CSV.
 */
package dev.tailor.studies;
