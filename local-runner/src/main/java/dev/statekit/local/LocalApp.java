package dev.statekit.local;

import dev.statekit.examples.ExampleApp;
import dev.statekit.examples.shop.Cart;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.emulation.ScheduleTicker;
import dev.statekit.local.template.Template;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The application running on this machine, whatever the backend: its functions, its event sources,
 * and what the demo looks at (the ingress queue's depth, the egress queues, stored state) or feeds
 * (the transactions stream).
 */
interface LocalApp extends AutoCloseable {
  /**
   * Brings the template up on {@code backend}: its resources created and its handlers constructed,
   * or, in memory, the examples' in-memory wiring.
   *
   * @param hold the carts' hold time, or null for the template's (in memory: the default)
   */
  static LocalApp open(
      Backend backend, Template template, String prefix, Duration hold, PrintWriter log) {
    if (!backend.hasServers()) {
      return new InMemoryApp(
          template, hold == null ? Cart.DEFAULT_HOLD : hold, LocalDeployment.PIPELINE_IDLE);
    }
    Map<String, String> overrides =
        hold == null ? Map.of() : Map.of(ExampleApp.HOLD_SECONDS, Long.toString(hold.toSeconds()));
    return new ServersApp(LocalDeployment.create(template, backend, prefix, log, overrides));
  }

  /** The backend, for the console. */
  String describe();

  /** The function of this logical id, or null. */
  LocalFunction function(String name);

  /** Every function's logical id. */
  List<String> functionNames();

  /** The function behind the function URL, or null. */
  String urlFunction();

  /**
   * Starts the event sources.
   *
   * @return one line per source, for the console
   */
  List<String> startEventSources(Activity activity, Duration tick, int retryAfterSeconds);

  /** The schedules, to fire at will. */
  List<ScheduleTicker> tickers();

  /** Puts an ingress envelope on the ingress queue, in its target's message group. */
  void enqueue(dev.statekit.function.Address target, byte[] envelope);

  /** Messages on the ingress queue, in flight or not. */
  int pendingMessages();

  /** Greetings that reached the greeter's egress since the last call. */
  List<String> takeGreetings();

  /** Orders that reached the shop's egress since the last call. */
  List<String> takeOrders();

  /** Dead letters that reached the dead-letter queue since the last call, each with its error. */
  List<String> takeDeadLetters();

  /** Stored state, decoded. */
  StateView stateView();

  /**
   * Hands {@code records} to the fraud check: onto the transactions stream, where the emulated
   * event source mapping reads them, or (in memory) straight to the function as Kinesis events.
   *
   * @return what was done, for the console
   */
  String feedTransactions(List<byte[]> records);

  @Override
  void close();
}
