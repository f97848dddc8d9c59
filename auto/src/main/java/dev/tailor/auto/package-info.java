/**
 * The {@code auto} policy: a scheduler that tunes itself. While it serves, {@link
 * dev.tailor.auto.AutoPolicy} keeps a bounded reservoir of the requests it saw complete and runs a
 * small share of them, under light load, at degree 1 or at a second degree, so that speedup is
 * measured rather than assumed; a background rebuild turns the reservoir into a demand profile,
 * builds the progress-aware policy's target table from it with the offline builder, simulates it
 * and the static baselines against the live policy on the recent load, and swaps only a candidate
 * that simulates no worse. {@link dev.tailor.auto.AutoStatus} says what it learned and why it
 * swapped or not.
 */
package dev.tailor.auto;
