package dev.statekit.stream.lambda.internal;

import dev.statekit.egress.EgressRecord;
import java.util.ArrayList;
import java.util.List;

/** Egress records to deliver, by output, in the order they were made. */
final class Deliveries {
  private final Routes routes;
  private final OutputDelivery delivery;
  private final List<List<EgressRecord>> byRoute = new ArrayList<>();

  /** Stand-ins for the place for refused outputs ({@link Routes#REFUSED}). */
  private final List<EgressRecord> refused = new ArrayList<>();

  Deliveries(Routes routes, OutputDelivery delivery) {
    this.routes = routes;
    this.delivery = delivery;
    for (int i = 0; i < routes.size(); i++) {
      byRoute.add(new ArrayList<>());
    }
  }

  void add(int route, EgressRecord record) {
    if (route == Routes.REFUSED || route >= byRoute.size()) {
      routes.get(route); // says which output this deployment lacks
      refused.add(record);
    } else {
      byRoute.get(route).add(record);
    }
  }

  void addAll(Deliveries other) {
    for (int i = 0; i < byRoute.size(); i++) {
      byRoute.get(i).addAll(other.byRoute.get(i));
    }
    refused.addAll(other.refused);
  }

  int size() {
    return byRoute.stream().mapToInt(List::size).sum() + refused.size();
  }

  /** One call per output with records, each delivering them to its sink. */
  List<Runnable> calls() {
    List<Runnable> calls = new ArrayList<>();
    for (int i = 0; i < byRoute.size(); i++) {
      call(calls, i, byRoute.get(i));
    }
    call(calls, Routes.REFUSED, refused);
    return calls;
  }

  private void call(List<Runnable> calls, int route, List<EgressRecord> pending) {
    List<EgressRecord> records = List.copyOf(pending);
    if (!records.isEmpty()) {
      var sink = routes.get(route).sink();
      calls.add(() -> delivery.deliver(sink, records));
    }
  }
}
