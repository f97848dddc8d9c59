package dev.tailor.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class DegreeCapTest {

  private final FakeRequest request = new FakeRequest();
  private final FakeSystem system = new FakeSystem();

  @Test
  void capsTheStartAndEveryLaterDegree() {
    Policy capped = DegreeCap.of(PolicyRegistry.of("rampup:10ms,6"), 3);
    assertEquals(1, capped.admit(request, system).degree());
    request.elapsed = 15_000_000L;
    assertEquals(2, capped.degree(request, system), "below the cap the policy decides");
    request.elapsed = 1_000_000_000L;
    assertEquals(3, capped.degree(request, system), "rampup would say 6");
    assertEquals(3, DegreeCap.of(PolicyRegistry.of("fixed:8"), 3).admit(request, system).degree());
    assertEquals("rampup:10ms,6", capped.spec(), "the cap keeps the policy's name");
  }

  @Test
  void passesDelaysWaitsAndPreferenceThrough() {
    Policy delaying =
        new Policy() {
          @Override
          public Admission admit(RequestView r, SystemView s) {
            return r.id() == 1 ? Admission.delayUntil(42) : Admission.awaitExit();
          }

          @Override
          public int degree(RequestView r, SystemView s) {
            return 0;
          }

          @Override
          public WorkerPreference workerPreference(SystemView s) {
            return WorkerPreference.ADMIT_FIRST;
          }

          @Override
          public String spec() {
            return "delaying";
          }
        };
    Policy capped = DegreeCap.of(delaying, 2);
    Admission a = capped.admit(request, system);
    assertSame(Admission.Kind.DELAY, a.kind());
    assertEquals(42, a.untilNanos());
    request.id = 2;
    assertSame(Admission.Kind.AWAIT_EXIT, capped.admit(request, system).kind());
    assertEquals(0, capped.degree(request, system), "serialize stays serialize");
    assertSame(WorkerPreference.ADMIT_FIRST, capped.workerPreference(system));
  }

  @Test
  void closingTheCapClosesThePolicy() {
    AtomicBoolean closed = new AtomicBoolean();
    Policy inner =
        new Policy() {
          @Override
          public Admission admit(RequestView r, SystemView s) {
            return Admission.start(1);
          }

          @Override
          public int degree(RequestView r, SystemView s) {
            return 1;
          }

          @Override
          public String spec() {
            return "x";
          }

          @Override
          public void close() {
            closed.set(true);
          }
        };
    DegreeCap.of(inner, 1).close();
    assertTrue(closed.get());
  }

  @Test
  void refusesACapBelowOne() {
    assertThrows(IllegalArgumentException.class, () -> DegreeCap.of(PolicyRegistry.of("seq"), 0));
  }
}
