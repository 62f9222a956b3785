package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressRecord;
import java.util.ArrayList;
import java.util.List;

/** Egress records to deliver, by output, in the order they were made. */
final class Deliveries {
  private final Routes routes;
  private final OutputDelivery delivery;
  private final List<List<EgressRecord>> byRoute = new ArrayList<>();

  Deliveries(Routes routes, OutputDelivery delivery) {
    this.routes = routes;
    this.delivery = delivery;
    for (int i = 0; i < routes.size(); i++) {
      byRoute.add(new ArrayList<>());
    }
  }

  void add(int route, EgressRecord record) {
    byRoute.get(route).add(record);
  }

  void addAll(Deliveries other) {
    for (int i = 0; i < byRoute.size(); i++) {
      byRoute.get(i).addAll(other.byRoute.get(i));
    }
  }

  int size() {
    return byRoute.stream().mapToInt(List::size).sum();
  }

  /** One call per output with records, each delivering them to its sink. */
  List<Runnable> calls() {
    List<Runnable> calls = new ArrayList<>();
    for (int i = 0; i < byRoute.size(); i++) {
      List<EgressRecord> records = List.copyOf(byRoute.get(i));
      if (!records.isEmpty()) {
        var sink = routes.get(i).sink();
        calls.add(() -> delivery.deliver(sink, records));
      }
    }
    return calls;
  }
}
