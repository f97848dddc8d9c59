package dev.tailor.core;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * JDK Flight Recorder events for the scheduler's decisions, so that they show in JDK Mission
 * Control next to GC and lock events. Disabled events cost nothing.
 */
final class SchedulerEvents {

  private SchedulerEvents() {}

  @Name("dev.tailor.Admission")
  @Label("Request Admitted")
  @Category("Tailor")
  @Description("A request left the admission queue and started to run")
  static final class Admission extends Event {
    @Label("Request Id")
    long requestId;

    @Label("Degree")
    int degree;

    @Label("Queueing Delay")
    @Timespan(Timespan.NANOSECONDS)
    long queueingNanos;

    @Label("Active Requests")
    int active;

    @Label("Queued Requests")
    int queued;
  }

  @Name("dev.tailor.DegreeChange")
  @Label("Degree Changed")
  @Category("Tailor")
  @Description("The policy changed a running request's degree of parallelism")
  static final class DegreeChange extends Event {
    @Label("Request Id")
    long requestId;

    @Label("From")
    int from;

    @Label("To")
    int to;

    @Label("Elapsed")
    @Timespan(Timespan.NANOSECONDS)
    long elapsedNanos;

    @Label("Work")
    @Timespan(Timespan.NANOSECONDS)
    long workNanos;
  }

  @Name("dev.tailor.RequestCompleted")
  @Label("Request Completed")
  @Category("Tailor")
  @Description("A request finished: its latency, work and parallelism")
  static final class Completed extends Event {
    @Label("Request Id")
    long requestId;

    @Label("Outcome")
    String outcome;

    @Label("Latency")
    @Timespan(Timespan.NANOSECONDS)
    long latencyNanos;

    @Label("Queueing")
    @Description("Arrival to admitted")
    @Timespan(Timespan.NANOSECONDS)
    long queueingNanos;

    @Label("Dispatch")
    @Description("Admitted to first running: the wake-up of the thread that runs it")
    @Timespan(Timespan.NANOSECONDS)
    long dispatchNanos;

    @Label("Run")
    @Description("First running to the last thread's end")
    @Timespan(Timespan.NANOSECONDS)
    long runNanos;

    @Label("Work")
    @Timespan(Timespan.NANOSECONDS)
    long workNanos;

    @Label("Max Degree")
    int maxDegree;
  }

  @Name("dev.tailor.Failure")
  @Label("Failure Survived")
  @Category("Tailor")
  @Description(
      "A policy, a listener or a scheduler thread failed; the scheduler went on as the consequence"
          + " says")
  static final class Failure extends Event {
    @Label("Kind")
    String kind;

    @Label("Consequence")
    String consequence;

    @Label("Failure")
    String failure;
  }
}
