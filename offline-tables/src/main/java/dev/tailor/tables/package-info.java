/**
 * Offline builders for the policies' tables: the Few-to-Many interval table, the TPC target table
 * and the tail-control threshold table, each computed from a measured demand profile with the
 * scheduler core's shared model.
 */
package dev.tailor.tables;
