package dev.tailor.sim;

import dev.tailor.measure.CoRun;
import dev.tailor.measure.DemandProfile;
import dev.tailor.measure.LatencyBreakdown;
import dev.tailor.measure.MachineNoise;
import dev.tailor.measure.Median;
import dev.tailor.measure.PointResult;
import dev.tailor.measure.Provenance;
import dev.tailor.measure.SpeedProbe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Derives a {@link Calibration} from a replay's runs of {@code seq}, whose requests run on one
 * thread each, so that what they cost beyond their profiled time is the machine's and not
 * parallelism's. What it needs of the report: runs of {@code seq} replayed in process with the
 * profile, by this Tailor (points of version 5), at a light load, and at a load where as many
 * requests as the machine has cores often run together (say 5% and 80% of capacity, {@code
 * --workers} the cores).
 *
 * <ul>
 *   <li>The run scale (the per-query part) is the median of served run time over profiled time of
 *       the requests that ran alone ({@link CoRun} level 1, pooled over every {@code seq} point).
 *   <li>The co-run factor at {@code b} busy threads is the median ratio of the requests that ran at
 *       {@code b} over the run scale. Levels 1 and the machine's cores need {@value #MIN_REQUESTS}
 *       requests each; a level between them with fewer is interpolated linearly.
 *   <li>The dispatch, completion and send-lag distributions are those of the runs at the lightest
 *       load, each percentile the median over the runs (with two runs, their mean), so that one run
 *       disturbed by the machine does not set them.
 *   <li>The stalls are the noise meter's oversleeps over the lightest load's runs (where the
 *       requests leave the cores mostly idle, so that the meter sees the machine and not the
 *       requests): the median oversleep is the wake-up every sleep costs (the floor), a stall is an
 *       oversleep's excess over it, and each GC pause of those windows takes out the smallest stall
 *       at least as long (the pauses are modelled apart); the rate is the stalls left over the
 *       windows' length.
 *   <li>The GC pauses are those of every {@code seq} point, per request answered.
 *   <li>The {@link RunTimeMap}: at the lightest load, the served run time's percentiles (each the
 *       median over the runs) over the profiled time's at the same degree, for {@code seq} (degree
 *       1) and for every {@code fixed:d} replayed at that load (degree {@code d}, up to the cores).
 *       Without a {@code fixed} run there, the map has degree 1 alone and the profile's speedups
 *       stand. The machine's speed while they ran is the median of the lightest load's runs' {@link
 *       SpeedProbe}s, where they carry one.
 * </ul>
 */
public final class CalibrationFit {

  /**
   * The fewest requests a co-run factor at 1 and at every core busy rests on, as a P99 of {@link
   * dev.tailor.measure.PooledLatency} does: below it the median is a handful of requests.
   */
  public static final int MIN_REQUESTS = 100;

  /**
   * One run's breakdown, each part as its 101 percentiles (0 to 100) in nanoseconds.
   *
   * @param dispatch admitted to first running
   * @param run first running to the last unit's end
   * @param completion the last unit's end to the answer seen by the client
   * @param sendLag the client's lag in sending
   */
  public record Parts(long[] dispatch, long[] run, long[] completion, long[] sendLag) {}

  /** The policy whose requests run on one thread: the runs a calibration is derived from. */
  public static final String ALONE = "seq";

  /** The policy of the runs at degree {@code d}: {@code fixed:d}. */
  static String atDegree(int d) {
    return "fixed:" + d;
  }

  /**
   * The policies a calibration run replays on a machine of {@code cores} cores: {@value #ALONE},
   * and {@code fixed:cores} for the run times at the machine's full degree.
   */
  public static List<String> policies(int cores) {
    return cores > 1 ? List.of(ALONE, atDegree(cores)) : List.of(ALONE);
  }

  private CalibrationFit() {}

  /**
   * The measured runs of one replay's report, as the fit reads them.
   *
   * @param dir the report directory, named in every error
   * @param points its measured points, by load then policy
   */
  public record Runs(Path dir, List<PointResult> points) {

    /** Copies the list. */
    public Runs {
      points = List.copyOf(points);
    }
  }

  /**
   * The calibration of a replay's report: its machine part and its per-query part, from every run
   * of {@value #ALONE} as the class comment says.
   *
   * @throws IllegalArgumentException saying what the report lacks and how to replay it: no such
   *     run, no latency breakdown, no noise histograms, too few requests at a busy count, no
   *     provenance or runs of several machines
   */
  public static Calibration fromReport(Runs report, DemandProfile profile) {
    List<PointResult> alone =
        report.points().stream().filter(p -> p.policy().equals(ALONE)).toList();
    double lightest = alone.stream().mapToDouble(PointResult::offeredRps).min().orElse(Double.NaN);
    List<PointResult> runs = alone.stream().filter(p -> p.offeredRps() == lightest).toList();
    if (runs.isEmpty()) {
      throw new IllegalArgumentException(
          report.dir() + ": no run of " + ALONE + " to derive a calibration from");
    }
    List<Parts> parts = new ArrayList<>();
    for (PointResult p : runs) {
      Parts part = parts(p);
      if (part == null) {
        throw new IllegalArgumentException(
            report.dir()
                + ": the runs of "
                + ALONE
                + " recorded no latency breakdown (replayed against a server that does not"
                + " report its timings?)");
      }
      parts.add(part);
    }
    Provenance.Machine machine = machine(report, alone);
    List<MachineNoise> lightNoise = noise(report, runs);
    List<MachineNoise> allNoise = noise(report, alone);
    long requests = alone.stream().mapToLong(PointResult::completed).sum();
    double[] scales = coRunMedians(report, alone, machine.cores());
    long[] counts = coRunCounts(alone, machine.cores());
    double runScale = Math.clamp(scales[0], 0.1, 100);
    double[] factors = new double[scales.length];
    for (int b = 0; b < factors.length; b++) {
      factors[b] = b == 0 ? 1 : scales[b] / scales[0];
    }
    long[] dispatch = median(parts.stream().map(Parts::dispatch).toList());
    double warmStart = WarmStartFit.of(alone, dispatch[99]);
    if (warmStart != 1) {
      // The runs that gave the warm-start line also gave the co-run factors, and a request that
      // queued starts while another runs: a co-run factor below 1 is the same warm machine,
      // measured again. The line holds it; the co-run factor keeps its slowdowns only.
      for (int b = 1; b < factors.length; b++) {
        factors[b] = Math.max(1, factors[b]);
      }
    }
    MachineModel model =
        new MachineModel(
            stalls(lightNoise), gcPauses(allNoise, requests), factors, counts, warmStart);
    long[] completion = median(parts.stream().map(Parts::completion).toList());
    long[] sendLag = median(parts.stream().map(Parts::sendLag).toList());
    String source =
        String.format(
            Locale.ROOT,
            "%s: %d run(s) of %s at %.0f requests/s (costs, stalls), %d at %d load(s) (co-run, GC)",
            report.dir(),
            runs.size(),
            ALONE,
            lightest,
            alone.size(),
            alone.stream().mapToDouble(PointResult::offeredRps).distinct().count());
    return Calibration.measured(
            machine, profile, source, runScale, dispatch, completion, sendLag, model)
        .withRunTimes(
            runTimes(report, profile, lightest, parts, machine.cores()),
            speed(report.points().stream().filter(p -> p.offeredRps() == lightest).toList()));
  }

  /**
   * The machine's speed over {@code runs}: the median of their probes' short and long ratios, or
   * null where none carries a probe.
   */
  public static SpeedProbe speed(List<PointResult> runs) {
    List<SpeedProbe> probes = runs.stream().map(PointResult::probe).filter(p -> p != null).toList();
    if (probes.isEmpty()) {
      return null;
    }
    return new SpeedProbe(
        probes.get(0).queries(),
        Median.of(probes.stream().mapToDouble(SpeedProbe::shortRatio).toArray()),
        Median.of(probes.stream().mapToDouble(SpeedProbe::longRatio).toArray()));
  }

  /**
   * The run-time map of the runs at the lightest load: {@code seq}'s ({@code alone}, the runs'
   * parts) at degree 1, each {@code fixed:d} replayed there at {@code d}.
   */
  static RunTimeMap runTimes(
      Runs report, DemandProfile profile, double lightest, List<Parts> alone, int cores) {
    List<RunTimeMap.Degree> degrees = new ArrayList<>();
    long requests =
        report.points().stream()
            .filter(p -> p.policy().equals(ALONE) && p.offeredRps() == lightest)
            .mapToLong(PointResult::completed)
            .sum();
    degrees.add(
        RunTimeMap.degree(
            1,
            Math.max(1, requests),
            median(alone.stream().map(Parts::run).toList()),
            RunTimeMap.profiledPercentiles(profile, 1)));
    int measured = profile.settings() == null ? 1 : profile.settings().measuredDegrees();
    for (int d = 2; d <= Math.min(cores, measured); d++) {
      String policy = atDegree(d);
      List<PointResult> runs =
          report.points().stream()
              .filter(p -> p.policy().equals(policy) && p.offeredRps() == lightest)
              .toList();
      List<long[]> run = new ArrayList<>();
      for (PointResult p : runs) {
        Parts part = parts(p);
        if (part != null) {
          run.add(part.run());
        }
      }
      if (!run.isEmpty()) {
        degrees.add(
            RunTimeMap.degree(
                d,
                Math.max(1, runs.stream().mapToLong(PointResult::completed).sum()),
                median(run),
                RunTimeMap.profiledPercentiles(profile, d)));
      }
    }
    return new RunTimeMap(degrees);
  }

  /** The one machine every run was measured on. */
  private static Provenance.Machine machine(Runs report, List<PointResult> runs) {
    String described = null;
    for (PointResult p : runs) {
      if (p.provenance() == null) {
        throw new IllegalArgumentException(
            report.dir()
                + ": a run of "
                + ALONE
                + " at "
                + p.offeredRps()
                + " rps records no provenance, so not the machine it was measured on; replay"
                + " it with this Tailor");
      }
      if (described == null) {
        described = p.provenance().machine();
      } else if (!described.equals(p.provenance().machine())) {
        throw new IllegalArgumentException(
            report.dir()
                + ": the runs of "
                + ALONE
                + " disagree on provenance.machine: '"
                + described
                + "' and '"
                + p.provenance().machine()
                + "'");
      }
    }
    try {
      return Provenance.Machine.parse(described);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(report.dir() + ": provenance.machine: " + e.getMessage());
    }
  }

  /** The runs' noise readings, each with its histograms. */
  private static List<MachineNoise> noise(Runs report, List<PointResult> runs) {
    List<MachineNoise> out = new ArrayList<>();
    for (PointResult p : runs) {
      if (p.noise() == null || !p.noise().hasHistograms()) {
        throw new IllegalArgumentException(
            report.dir()
                + ": the run of "
                + ALONE
                + " at "
                + p.offeredRps()
                + " rps (run "
                + p.repetition()
                + ", version "
                + p.version()
                + ") has no noise.oversleepHistogram: the stalls and GC pauses are measured from"
                + " points of version 5 on, replayed with the noise meter; replay it with this"
                + " Tailor");
      }
      out.add(p.noise());
    }
    return out;
  }

  /**
   * The median run-time ratio at each busy count 1..cores, pooled over the runs; a count between 1
   * and cores with too few requests interpolated between its measured neighbours.
   */
  static double[] coRunMedians(Runs report, List<PointResult> runs, int cores) {
    Histogram[] pooled = pooledLevels(runs, cores);
    double[] medians = new double[cores];
    Arrays.fill(medians, Double.NaN);
    for (int b = 1; b <= cores; b++) {
      Histogram h = pooled[b - 1];
      boolean required = b == 1 || b == cores;
      if (h.getTotalCount() >= MIN_REQUESTS) {
        medians[b - 1] = h.getValueAtPercentile(50) / (double) CoRun.RATIO_UNITS;
      } else if (required) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "%s: the runs of %s measured %d request(s) running at %d busy thread(s) (coRun);"
                    + " the co-run slowdown needs at least %d at 1 and at %d (the machine's cores):"
                    + " replay %s in process with --profile, at a light load and at one where %d"
                    + " requests often run together (e.g. --loads 0.05,0.8 with --workers %d)",
                report.dir(),
                ALONE,
                h.getTotalCount(),
                b,
                MIN_REQUESTS,
                cores,
                ALONE,
                cores,
                cores));
      }
    }
    int last = 0; // the last measured count, as an index
    for (int i = 1; i < cores; i++) {
      if (!Double.isNaN(medians[i])) {
        for (int j = last + 1; j < i; j++) {
          medians[j] = medians[last] + (medians[i] - medians[last]) * (j - last) / (i - last);
        }
        last = i;
      }
    }
    return medians;
  }

  /** The requests behind each busy count's factor 1..cores, 0 where it was interpolated. */
  private static long[] coRunCounts(List<PointResult> runs, int cores) {
    Histogram[] pooled = pooledLevels(runs, cores);
    long[] counts = new long[cores];
    for (int b = 0; b < cores; b++) {
      long n = pooled[b].getTotalCount();
      counts[b] = n >= MIN_REQUESTS ? n : 0;
    }
    return counts;
  }

  private static Histogram[] pooledLevels(List<PointResult> runs, int cores) {
    Histogram[] pooled = new Histogram[cores];
    for (int b = 0; b < cores; b++) {
      pooled[b] = new Histogram(3);
      pooled[b].setAutoResize(true);
    }
    for (PointResult p : runs) {
      if (p.coRun() == null) {
        continue;
      }
      for (CoRun.Level level : p.coRun().levels()) {
        if (level.busy() <= cores) {
          pooled[level.busy() - 1].add(level.ratios());
        }
      }
    }
    return pooled;
  }

  /** The stalls of the windows, as the class comment says. */
  static MachineModel.Stalls stalls(List<MachineNoise> windows) {
    Histogram oversleeps = merged(windows.stream().map(MachineNoise::oversleeps).toList());
    Histogram pauses = merged(windows.stream().map(MachineNoise::gcPauseDurations).toList());
    long window = windows.stream().mapToLong(MachineNoise::windowNanos).sum();
    long floor = oversleeps.getTotalCount() == 0 ? 0 : oversleeps.getValueAtPercentile(50);
    List<long[]> excess = new ArrayList<>(); // {stall, count}, ascending
    for (HistogramIterationValue v : oversleeps.recordedValues()) {
      long stall = v.getValueIteratedTo() - floor;
      if (stall > 0) {
        excess.add(new long[] {stall, v.getCountAtValueIteratedTo()});
      }
    }
    for (HistogramIterationValue v : pauses.recordedValues()) {
      for (long k = 0; k < v.getCountAtValueIteratedTo(); k++) {
        takeOut(excess, v.getValueIteratedTo());
      }
    }
    long[] values = excess.stream().mapToLong(e -> e[0]).toArray();
    long[] counts = excess.stream().mapToLong(e -> e[1]).toArray();
    long events = Arrays.stream(counts).sum();
    return new MachineModel.Stalls(Math.max(1, window), events, floor, percentiles(values, counts));
  }

  /** Takes one count out at the smallest stall at least {@code nanos} long, else the longest. */
  private static void takeOut(List<long[]> excess, long nanos) {
    int at = -1;
    for (int i = 0; i < excess.size(); i++) {
      if (excess.get(i)[1] > 0) {
        at = i; // the longest with a count so far
        if (excess.get(i)[0] >= nanos) {
          break;
        }
      }
    }
    if (at >= 0) {
      excess.get(at)[1]--;
    }
  }

  /** The GC pauses of the windows, per request answered in them. */
  static MachineModel.GcPauses gcPauses(List<MachineNoise> windows, long requests) {
    Histogram pauses = merged(windows.stream().map(MachineNoise::gcPauseDurations).toList());
    List<long[]> recorded = new ArrayList<>();
    for (HistogramIterationValue v : pauses.recordedValues()) {
      recorded.add(new long[] {v.getValueIteratedTo(), v.getCountAtValueIteratedTo()});
    }
    return new MachineModel.GcPauses(
        Math.max(1, requests),
        pauses.getTotalCount(),
        percentiles(
            recorded.stream().mapToLong(e -> e[0]).toArray(),
            recorded.stream().mapToLong(e -> e[1]).toArray()));
  }

  private static Histogram merged(List<Histogram> histograms) {
    Histogram out = new Histogram(3);
    out.setAutoResize(true);
    histograms.forEach(out::add);
    return out;
  }

  /**
   * The 101 percentiles (0 to 100) of values with counts, ascending: percentile p is the least
   * value at or below which at least {@code ceil(p / 100 * total)} counts lie (at least 1), as
   * HdrHistogram reads one; all 0 where there is no count.
   */
  static long[] percentiles(long[] values, long[] counts) {
    long total = Arrays.stream(counts).sum();
    long[] out = new long[Calibration.PERCENTILES];
    if (total == 0) {
      return out;
    }
    int i = 0;
    long below = 0;
    for (int p = 0; p < out.length; p++) {
      long rank = Math.max(1, (long) Math.ceil(p / 100.0 * total));
      while (below + counts[i] < rank) {
        below += counts[i++];
      }
      out[p] = values[i];
    }
    return out;
  }

  /** A point's breakdown as the calibration reads it, or null where the point has none. */
  static Parts parts(PointResult p) {
    LatencyBreakdown b = p.breakdown();
    if (b == null) {
      return null;
    }
    return new Parts(
        b.part("dispatch").percentilesNanos(),
        b.part("run").percentilesNanos(),
        b.part("completion").percentilesNanos(),
        b.part("sendLag").percentilesNanos());
  }

  /** Each percentile's median over the runs, kept ascending. */
  static long[] median(List<long[]> percentiles) {
    for (long[] p : percentiles) {
      if (p == null || p.length != Calibration.PERCENTILES) {
        throw new IllegalArgumentException(
            "a part of the breakdown does not hold " + Calibration.PERCENTILES + " percentiles");
      }
    }
    int n = percentiles.size();
    long[] out = new long[Calibration.PERCENTILES];
    long[] values = new long[n];
    for (int i = 0; i < out.length; i++) {
      for (int r = 0; r < n; r++) {
        values[r] = percentiles.get(r)[i];
      }
      Arrays.sort(values);
      out[i] = n % 2 == 1 ? values[n / 2] : Math.round((values[n / 2 - 1] + values[n / 2]) / 2.0);
      if (i > 0 && out[i] < out[i - 1]) {
        out[i] = out[i - 1];
      }
    }
    return out;
  }
}
