/** The tailor command line (picocli): one entry point for the pipeline from corpora to reports. */
package dev.tailor.cli;
