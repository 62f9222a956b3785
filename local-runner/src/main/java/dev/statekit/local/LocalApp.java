package dev.statekit.local;

import dev.statekit.application.Application;
import dev.statekit.local.emulation.Activity;
import dev.statekit.local.emulation.ScheduleTicker;
import dev.statekit.local.template.Template;
import dev.statekit.types.TypeName;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The application running on this machine, whatever the backend: its functions, its event sources,
 * and what a scenario looks at (the ingress queue's depth, the egress queues, stored state) or
 * feeds (its pipelines' streams).
 */
interface LocalApp extends AutoCloseable {
  /**
   * Brings the template up on {@code backend}: its resources created and its handlers constructed,
   * or, in memory, the in-memory wiring of the application it declares.
   *
   * @param settings variables set instead of the template's (where it sets them; in memory, added)
   */
  static LocalApp open(
      Backend backend,
      Template template,
      String prefix,
      Map<String, String> settings,
      PrintWriter log) {
    if (!backend.hasServers()) {
      return new InMemoryApp(template, settings);
    }
    return new ServersApp(LocalDeployment.create(template, backend, prefix, log, settings));
  }

  /**
   * The application the template declares ({@code STATEKIT_APPLICATION} of its application
   * function), loaded from its code.
   *
   * @throws IllegalStateException if it declares none
   */
  static Application declared(Template template) {
    var function =
        ApplicationCode.applicationFunction(template)
            .orElseThrow(() -> new IllegalStateException(noDeclaration(template)));
    return ApplicationCode.application(template, function);
  }

  /** Why a template without a declaration can't do this. */
  static String noDeclaration(Template template) {
    return "No function of "
        + template.source()
        + " sets "
        + Application.VARIABLE
        + ": the local runner needs the application's declaration (its StateKitApplication"
        + " class) for this";
  }

  /** The application's declaration. */
  Application application();

  /** The function that runs the application (the one behind the function URL). */
  LocalFunction applicationFunction();

  /** The value the application function gets for {@code variable}, if set. */
  Optional<String> setting(String variable);

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

  /** Records that reached egress {@code egress} (declared as a queue) since the last call. */
  List<String> takeEgress(TypeName egress);

  /** Dead letters that reached the dead-letter queue since the last call, each with its error. */
  List<String> takeDeadLetters();

  /** Stored state, decoded. */
  StateView stateView();

  /**
   * Hands {@code records} to pipeline {@code pipeline}: onto the stream it reads, where the
   * emulated event source mapping reads them, or (in memory) straight to the function as Kinesis
   * events.
   *
   * @return what was done, for the console
   */
  String feed(String pipeline, List<byte[]> records);

  /** What the console shows of it, or null where there is no console yet. */
  default ConsoleData console() {
    return null;
  }

  @Override
  void close();
}
