/**
 * Seeded arrival processes and request orders, shared by the load client and the simulator so that
 * both can run the same sequence.
 */
package dev.tailor.sim.arrival;
