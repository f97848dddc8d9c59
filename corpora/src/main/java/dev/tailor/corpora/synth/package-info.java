/** The seeded scale-up generator: synthetic documents from a bigram model of real text. */
package dev.tailor.corpora.synth;
