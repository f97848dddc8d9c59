/**
 * Query features from index statistics, and XGBoost4J training and inference behind the scheduler
 * core's predictor interface.
 */
package dev.tailor.predictor;
