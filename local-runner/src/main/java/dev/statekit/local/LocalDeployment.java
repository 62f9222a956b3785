package dev.statekit.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.application.Application;
import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.handlers.RuntimeEnvironment;
import dev.statekit.handlers.StateKitHandler;
import dev.statekit.handlers.Variables;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.local.template.LocalResources;
import dev.statekit.local.template.Template;
import dev.statekit.runtime.InvocationObserver;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The template brought up on a backend: its tables, queues and streams created, and its functions'
 * handlers constructed in this JVM with the environment the template gives them, resolved against
 * the local resources. A handler is built through its {@code (Variables)} constructor, so it reads
 * exactly the variables it would read on Lambda.
 */
final class LocalDeployment {
  /**
   * What the local runner sets instead of the template (when the template sets the variable), for
   * every application: a batch timeout of 5 s (no local batch runs that long, so an idle shard's
   * windows fire within seconds). The application's own {@link Application#localSettings()} come on
   * top.
   */
  static final Map<String, String> LOCAL_TIMING = Map.of("STATEKIT_BATCH_TIMEOUT_SECONDS", "5");

  private final Template template;
  private final Backend backend;
  private final LocalResources resources;
  private final Map<String, LocalFunction> functions = new LinkedHashMap<>();

  private final Map<String, String> overrides;

  private InvocationObserver observer = InvocationObserver.NONE;

  private LocalDeployment(
      Template template, Backend backend, LocalResources resources, Map<String, String> overrides) {
    this.template = template;
    this.backend = backend;
    this.resources = resources;
    this.overrides = Map.copyOf(overrides);
  }

  /**
   * Creates (or finds) the template's resources on {@code backend}, printing each to {@code log}.
   */
  static LocalDeployment create(
      Template template, Backend backend, String prefix, PrintWriter log) {
    return create(template, backend, prefix, log, Map.of());
  }

  /** Like {@link #create(Template, Backend, String, PrintWriter)}, some variables set otherwise. */
  static LocalDeployment create(
      Template template,
      Backend backend,
      String prefix,
      PrintWriter log,
      Map<String, String> overrides) {
    if (!backend.hasServers()) {
      throw new IllegalStateException("In memory there are no resources to create");
    }
    LocalResources resources =
        LocalResources.create(
            template,
            prefix,
            backend.dynamoDbClient(),
            backend.sqsClient(),
            backend.kinesisClient(),
            backend.mode() == Backend.Mode.AWS,
            log);
    Map<String, String> settings = new LinkedHashMap<>(LOCAL_TIMING);
    ApplicationCode.applicationFunction(template)
        .ifPresent(f -> settings.putAll(ApplicationCode.application(template, f).localSettings()));
    settings.putAll(overrides);
    return new LocalDeployment(template, backend, resources, settings);
  }

  /**
   * The template's resources created before under {@code prefix} on {@code backend} (or by the
   * physical name {@code names} gives a logical id), found without creating or changing any (see
   * {@link LocalResources#find}).
   */
  static LocalDeployment existing(
      Template template,
      Backend backend,
      String prefix,
      Map<String, String> names,
      PrintWriter log) {
    if (!backend.hasServers()) {
      throw new IllegalStateException("In memory there are no resources to find");
    }
    LocalResources resources =
        LocalResources.find(
            template,
            prefix,
            names,
            backend.dynamoDbClient(),
            backend.sqsClient(),
            backend.kinesisClient(),
            log);
    Map<String, String> settings = new LinkedHashMap<>(LOCAL_TIMING);
    ApplicationCode.applicationFunction(template)
        .ifPresent(f -> settings.putAll(ApplicationCode.application(template, f).localSettings()));
    return new LocalDeployment(template, backend, resources, settings);
  }

  Template template() {
    return template;
  }

  /**
   * Shows {@code observer} the invocations of the handlers built from now on (those with a
   * constructor taking {@code Variables} and an {@code InvocationObserver}, as the application
   * handlers have; the application's class loader asks the runner's first, so the types agree).
   */
  synchronized void observeWith(InvocationObserver observer) {
    this.observer = observer;
  }

  Backend backend() {
    return backend;
  }

  LocalResources resources() {
    return resources;
  }

  /**
   * The environment {@code function} gets: the template's variables resolved, and the endpoints.
   */
  Map<String, String> environment(FunctionDef function) {
    Map<String, String> environment = new LinkedHashMap<>(backend.variables());
    String region = environment.get("AWS_REGION");
    function
        .environment()
        .forEach((name, value) -> environment.put(name, resources.resolve(value, region)));
    overrides.forEach((name, value) -> environment.computeIfPresent(name, (n, old) -> value));
    return environment;
  }

  /** The function with this logical id, its handler constructed on first use. */
  synchronized LocalFunction function(String logicalId) {
    LocalFunction function = functions.get(logicalId);
    if (function == null) {
      FunctionDef definition =
          template.functions().stream()
              .filter(f -> f.logicalId().equals(logicalId))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "The template has no function " + logicalId + "; it has " + names()));
      function = new LocalFunction(definition, construct(definition));
      functions.put(logicalId, function);
    }
    return function;
  }

  /** The function behind the template's function URL, if one has a {@code FunctionUrlConfig}. */
  Optional<FunctionDef> urlFunction() {
    return template.urlFunction();
  }

  /**
   * Reads stored state the way the function behind the URL declares it: its registry (from its
   * {@code StateKitHandler}) over the table its environment names ({@code STATEKIT_TABLE}).
   *
   * @throws IllegalStateException if there is no such function or it keeps no state
   */
  StateView stateView() {
    FunctionDef app =
        urlFunction()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "No function of the template has a function URL: no StateKit entry point to read state with"));
    if (!(function(app.logicalId()).handler() instanceof StateKitHandler handler)) {
      throw new IllegalStateException(
          app.logicalId() + " is not a StateKitHandler: its state can't be decoded here");
    }
    StatefulFunctions functions =
        handler
            .entryPoint()
            .functions()
            .orElseThrow(() -> new IllegalStateException(app.logicalId() + " serves no functions"));
    String table = environment(app).get(RuntimeEnvironment.TABLE);
    if (table == null) {
      throw new IllegalStateException(
          app.logicalId() + " has no " + RuntimeEnvironment.TABLE + ": it keeps no state");
    }
    return new StateView(functions, new DynamoDbFunctionStore(backend.dynamoDbClient(), table));
  }

  List<String> names() {
    return template.functions().stream().map(FunctionDef::logicalId).toList();
  }

  private RequestStreamHandler construct(FunctionDef definition) {
    Class<?> type = ApplicationCode.load(template, definition, definition.handlerClass());
    if (!RequestStreamHandler.class.isAssignableFrom(type)) {
      throw new IllegalStateException(
          definition.handlerClass()
              + " is not a RequestStreamHandler; the local runner runs stream handlers");
    }
    try {
      Constructor<?> observed = observedConstructor(type);
      Constructor<?> constructor =
          observed != null ? observed : type.getConstructor(Variables.class);
      // The application's declaration is loaded by the handler from the same code.
      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      thread.setContextClassLoader(ApplicationCode.loader(template));
      try {
        Variables variables = Variables.of(environment(definition));
        return (RequestStreamHandler)
            (observed != null
                ? constructor.newInstance(variables, observer)
                : constructor.newInstance(variables));
      } finally {
        thread.setContextClassLoader(previous);
      }
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          definition.handlerClass()
              + " needs a public constructor taking Variables, so the local runner can give it the template's environment",
          e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          definition.logicalId() + "'s handler failed to start: " + e.getCause().getMessage(),
          e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "Cannot construct " + definition.handlerClass() + ": " + e, e);
    }
  }

  private Constructor<?> observedConstructor(Class<?> type) {
    if (observer == InvocationObserver.NONE) {
      return null;
    }
    try {
      return type.getConstructor(Variables.class, InvocationObserver.class);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }
}
