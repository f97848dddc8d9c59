/**
 * Reading and writing the project's versioned JSON files: validated field access that names file
 * and field, and atomic writes.
 */
package dev.tailor.core.json;
