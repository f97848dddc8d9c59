/**
 * The shared model: speedup curves, demand profiles, the Few-to-Many schedule maths and the
 * parametric profile; one copy, used by the online policies, the table builders and the simulator.
 */
package dev.tailor.core.model;
