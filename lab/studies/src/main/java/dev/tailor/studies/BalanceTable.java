package dev.tailor.studies;

import dev.tailor.studies.balance.BalanceStudy;
import dev.tailor.studies.balance.Balancer;
import dev.tailor.studies.balance.ServiceTimes;
import java.util.ArrayList;
import java.util.List;

/**
 * The load-balancing study of one service-time distribution ({@link BalanceStudy}): a row per core
 * count and utilization with every balancer's P50 and P99, the best P99's balancer and how far the
 * single queue lags it.
 */
public final class BalanceTable implements Study<BalanceTable.Point> {

  /** A point: this many cores busy this share of the time. */
  public record Point(int cores, double load) {}

  private final ServiceTimes service;
  private final int[] cores;
  private final double[] loads;
  private final int requests;
  private final long seed;
  private final List<Balancer> balancers;
  private final List<BalanceStudy.Cell> cells = new ArrayList<>();

  /**
   * The study of {@code service} under {@code balancers} at every core count and load, as {@link
   * BalanceStudy#sweep}.
   */
  public BalanceTable(
      ServiceTimes service,
      List<Balancer> balancers,
      int[] cores,
      double[] loads,
      int requests,
      long seed) {
    this.service = service;
    this.cores = cores.clone();
    this.loads = loads.clone();
    this.requests = requests;
    this.seed = seed;
    this.balancers = List.copyOf(balancers);
  }

  @Override
  public String title() {
    return service.toString();
  }

  @Override
  public List<Table.Column> columns() {
    List<Table.Column> out = new ArrayList<>();
    out.add(Table.Column.number("cores"));
    out.add(Table.Column.number("load"));
    out.add(Table.Column.number("requests/s"));
    for (Balancer b : balancers) {
      out.add(Table.Column.number(b.name() + " P50 / P99"));
    }
    out.add(Table.Column.text("best P99"));
    out.add(Table.Column.number("single vs best"));
    return out;
  }

  @Override
  public List<Point> points() {
    List<Point> out = new ArrayList<>();
    for (int c : cores) {
      for (double load : loads) {
        out.add(new Point(c, load));
      }
    }
    return out;
  }

  /** Runs one point: its service times and arrivals are those of the whole sweep's. */
  @Override
  public List<String> run(Point point) {
    BalanceStudy.Cell cell =
        BalanceStudy.sweep(
                service,
                new int[] {point.cores()},
                new double[] {point.load()},
                requests,
                seed,
                balancers)
            .get(0);
    cells.add(cell);
    List<String> row = new ArrayList<>();
    row.add(Integer.toString(cell.cores()));
    row.add(Cells.f("%.2f", cell.load()));
    row.add(Cells.f("%,.0f", cell.ratePerSecond()));
    for (BalanceStudy.Result r : cell.results()) {
      row.add(Cells.latency(r.p50Nanos()) + " / " + Cells.latency(r.p99Nanos()));
    }
    double lag =
        (double) cell.result(BalanceStudy.SINGLE_QUEUE).p99Nanos() / cell.winner().p99Nanos() - 1;
    row.add(cell.winner().balancer());
    row.add(Cells.f("%+.1f%%", lag * 100));
    return row;
  }

  /** Where the single queue stops holding within {@code tolerance} (a fraction) of the best. */
  public String verdict(double tolerance) {
    return service + ": " + BalanceStudy.Summary.of(cells, tolerance).sentence() + ".";
  }
}
