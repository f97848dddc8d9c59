package dev.tailor.bench;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.connect.VMStartException;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.MethodEntryRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code bench call-path}: how many calls one search makes from one Tailor class into another,
 * counted by the Java debugger interface in a child JVM rather than read off the code. The child
 * ({@link CallPathHarness}) runs one search under {@code fixed:2} with a helper; between its two
 * markers every entry into a method of a {@code dev.tailor} class whose caller is another {@code
 * dev.tailor} class counts (a lambda counts as its enclosing class, a nested class apart). A
 * method-entry trace makes the child interpret, so the search runs many times slower than it would
 * and the reevaluator ticks through it far more often: its calls are printed apart and left out of
 * the total. The windows each thread claims vary with timing, so the trace is repeated and the
 * range printed. Needs a JDK with the {@code jdk.jdi} module.
 */
public final class CallPathBench {

  /** The benchmark's name, as {@code ./tailor bench} knows it. */
  public static final String NAME = "call-path";

  private static final String TAILOR = "dev.tailor.";
  private static final String TICKS = "tailor-reevaluator";

  private CallPathBench() {}

  /** One trace: calls by thread (numbered threads pooled by name), the classes they crossed. */
  record Trace(Map<String, Integer> byThread, Set<String> classes, Map<String, Integer> byCallee) {
    int searching() {
      return byThread.entrySet().stream()
          .filter(e -> !e.getKey().equals(TICKS))
          .mapToInt(Map.Entry::getValue)
          .sum();
    }
  }

  /**
   * Traces the search 3 times ({@code quick} once), about 10 s each, and prints the counts.
   *
   * @throws IOException if the child JVM cannot be started
   * @throws InterruptedException if interrupted while it runs
   */
  public static void run(boolean quick, PrintWriter out) throws IOException, InterruptedException {
    int runs = quick ? 1 : 3;
    out.printf(
        Locale.ROOT,
        "%ncall-path: one search under fixed:2 with a helper (%d segments of %,d documents, a"
            + " one-term query, warm), traced %d time(s) by the debugger interface; calls from one"
            + " Tailor class into another, the reevaluator's ticks apart%n",
        CallPathHarness.SEGMENTS,
        CallPathHarness.DOCS_PER_SEGMENT,
        runs);
    List<Trace> traces = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      Trace t = trace();
      traces.add(t);
      out.printf(
          Locale.ROOT,
          "  trace %d: %d calls searching %s, %d classes%n",
          i + 1,
          t.searching(),
          t.byThread(),
          t.classes().size());
      out.flush();
    }
    int[] counts = traces.stream().mapToInt(Trace::searching).sorted().toArray();
    Set<String> classes = new TreeSet<>();
    traces.forEach(t -> classes.addAll(t.classes()));
    Set<String> files = new TreeSet<>();
    classes.forEach(c -> files.add(c.replaceAll("\\$.*", "")));
    out.printf(
        Locale.ROOT,
        "calls searching: median %d, range %d-%d; classes %d (source files %d)%n",
        counts[counts.length / 2],
        counts[0],
        counts[counts.length - 1],
        classes.size(),
        files.size());
    Trace median =
        traces.stream().filter(t -> t.searching() == counts[counts.length / 2]).findFirst().get();
    out.println("calls into each class, the median trace:");
    median.byCallee().forEach((c, n) -> out.printf(Locale.ROOT, "  %5d %s%n", n, c));
    out.println("classes crossed: " + String.join(", ", classes));
    out.flush();
  }

  private static Trace trace() throws IOException, InterruptedException {
    LaunchingConnector launcher = Bootstrap.virtualMachineManager().defaultConnector();
    Map<String, Connector.Argument> args = launcher.defaultArguments();
    args.get("home").setValue(System.getProperty("java.home"));
    args.get("main").setValue(CallPathHarness.class.getName());
    args.get("options").setValue("-cp " + System.getProperty("java.class.path"));
    VirtualMachine vm;
    try {
      vm = launcher.launch(args);
    } catch (IllegalConnectorArgumentsException | VMStartException e) {
      throw new IOException("the traced JVM did not start: " + e.getMessage(), e);
    }
    drain(vm.process().getInputStream());
    drain(vm.process().getErrorStream());
    EventRequestManager requests = vm.eventRequestManager();
    ClassPrepareRequest prepared = requests.createClassPrepareRequest();
    prepared.addClassFilter(CallPathHarness.class.getName());
    prepared.enable();
    MethodEntryRequest entries = requests.createMethodEntryRequest();
    entries.addClassFilter(TAILOR + "*");
    entries.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD); // to read the caller's frame
    Map<String, Integer> byThread = new TreeMap<>();
    Map<String, Integer> byCallee = new TreeMap<>();
    Set<String> classes = new TreeSet<>();
    try {
      while (true) {
        EventSet events = vm.eventQueue().remove();
        for (Event e : events) {
          switch (e) {
            case ClassPrepareEvent p -> {
              for (Method m : p.referenceType().methods()) {
                if (m.name().equals("begin") || m.name().equals("end")) {
                  BreakpointRequest b = requests.createBreakpointRequest(m.location());
                  b.setSuspendPolicy(EventRequest.SUSPEND_ALL);
                  b.enable();
                }
              }
            }
            case BreakpointEvent b ->
                entries.setEnabled(b.location().method().name().equals("begin"));
            case MethodEntryEvent m -> count(m, byThread, byCallee, classes);
            case VMDeathEvent d -> {
              return new Trace(byThread, classes, byCallee);
            }
            case VMDisconnectEvent d -> {
              return new Trace(byThread, classes, byCallee);
            }
            default -> {}
          }
        }
        events.resume();
      }
    } catch (com.sun.jdi.VMDisconnectedException e) {
      return new Trace(byThread, classes, byCallee);
    }
  }

  private static void count(
      MethodEntryEvent m,
      Map<String, Integer> byThread,
      Map<String, Integer> byCallee,
      Set<String> classes) {
    ThreadReference thread = m.thread();
    try {
      if (thread.frameCount() < 2) {
        return;
      }
      Location from = thread.frame(1).location();
      String caller = className(from.declaringType());
      String callee = className(m.method().declaringType());
      if (!caller.startsWith(TAILOR) || caller.equals(callee)) {
        return;
      }
      byThread.merge(thread.name().replaceAll("-?[0-9]+$", ""), 1, Integer::sum);
      if (!thread.name().equals(TICKS)) {
        byCallee.merge(callee.substring(TAILOR.length()), 1, Integer::sum);
        classes.add(caller.substring(TAILOR.length()));
        classes.add(callee.substring(TAILOR.length()));
      }
    } catch (IncompatibleThreadStateException e) {
      throw new IllegalStateException("a traced thread was not suspended at its event", e);
    }
  }

  /** A class's name, a lambda's as its enclosing class's. */
  private static String className(ReferenceType type) {
    String name = type.name();
    int lambda = name.indexOf("$$Lambda");
    return lambda < 0 ? name : name.substring(0, lambda);
  }

  /** Reads the child's output away, so that it never blocks on a full pipe. */
  private static void drain(InputStream in) {
    Thread t =
        new Thread(
            () -> {
              try (in) {
                in.transferTo(OutputStream.nullOutputStream());
              } catch (IOException e) {
                // the child ended
              }
            },
            "call-path-drain");
    t.setDaemon(true);
    t.start();
  }
}
