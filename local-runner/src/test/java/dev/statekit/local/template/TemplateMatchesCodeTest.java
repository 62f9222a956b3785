package dev.statekit.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * template.yaml against the code: the handlers it names are in the built jar, the variables the
 * code reads are set (and those set are read), every policy and reference names a resource of the
 * template, and the deployment settings the application relies on are there.
 */
class TemplateMatchesCodeTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path JAR = ROOT.resolve("examples/target/statekit-examples.jar");

  /** Set by Lambda itself, or read by the JVM rather than the code. */
  private static final Set<String> NOT_FROM_THE_TEMPLATE =
      Set.of(
          "AWS_REGION",
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "AWS_SESSION_TOKEN",
          "AWS_CONTAINER_CREDENTIALS_FULL_URI",
          "AWS_CONTAINER_AUTHORIZATION_TOKEN");

  private static final Set<String> READ_BY_THE_JVM = Set.of("JAVA_TOOL_OPTIONS");

  private static Template template;
  private static URLClassLoader jar;

  @BeforeAll
  static void load() throws Exception {
    template = Template.load(ROOT.resolve("template.yaml"));
    if (!Files.isRegularFile(JAR)) {
      fail(JAR + " is missing: build the examples module first (mvn -B package)");
    }
    // Only the jar and the JDK: a class found here is one Lambda will find.
    jar = new URLClassLoader(new URL[] {JAR.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
  }

  @Test
  void everyHandlerClassAndMethodIsInTheBuiltJar() throws Exception {
    assertTrue(template.functions().size() >= 2, "functions: " + template.functions());
    Class<?> streamHandler =
        jar.loadClass("com.amazonaws.services.lambda.runtime.RequestStreamHandler");
    Class<?> context = jar.loadClass("com.amazonaws.services.lambda.runtime.Context");
    for (FunctionDef function : template.functions()) {
      Class<?> handler = jar.loadClass(function.handlerClass());
      handler.getConstructor(); // Lambda's constructor
      Method method =
          streamHandler.isAssignableFrom(handler)
              ? handler.getMethod(
                  function.handlerMethod(), InputStream.class, OutputStream.class, context)
              : findTwoArgumentMethod(handler, function.handlerMethod(), context);
      assertTrue(java.lang.reflect.Modifier.isPublic(method.getModifiers()), function.handler());
    }
  }

  @Test
  void everyVariableTheCodeReadsIsSetAndEverySetOneIsRead() throws Exception {
    List<String> problems = new ArrayList<>();
    for (FunctionDef function : template.functions()) {
      Wired wired;
      try {
        wired = Wired.of(function);
      } catch (InvocationTargetException e) {
        problems.add(function.logicalId() + ": the handler's wiring failed: " + e.getCause());
        continue;
      }
      Set<String> required = wired.names("requiredNames");
      Set<String> optional = wired.names("optionalNames");
      for (String name : required) {
        if (!function.environment().containsKey(name)) {
          problems.add(
              function.logicalId() + " reads " + name + " but the template does not set it");
        }
      }
      for (String name : function.environment().keySet()) {
        if (!required.contains(name)
            && !optional.contains(name)
            && !READ_BY_THE_JVM.contains(name)) {
          problems.add(function.logicalId() + " sets " + name + " but its code never reads it");
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void theReadmeDocumentsEveryVariableTheCodeReads() throws Exception {
    // The README and its pages under docs/ (the configuration reference is docs/reference.md).
    StringBuilder docs = new StringBuilder(Files.readString(ROOT.resolve("README.md")));
    try (var pages = Files.list(ROOT.resolve("docs"))) {
      for (Path page : pages.filter(p -> p.toString().endsWith(".md")).toList()) {
        docs.append(Files.readString(page));
      }
    }
    String readme = docs.toString();
    Set<String> read = new TreeSet<>();
    for (FunctionDef function : template.functions()) {
      Wired wired = Wired.of(function);
      read.addAll(wired.names("requiredNames"));
      read.addAll(wired.names("optionalNames"));
    }
    read.removeAll(NOT_FROM_THE_TEMPLATE);
    List<String> missing =
        read.stream().filter(name -> !readme.contains("`" + name + "`")).toList();
    assertEquals(List.of(), missing, "variables the README's configuration reference lacks");
  }

  @Test
  void everyEnabledEventSourceAndFunctionUrlIsRoutedByTheEntryPoint() throws Exception {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (FunctionDef function : template.functions()) {
      Object entryPoint = entryPointOf(function);
      if (entryPoint == null) {
        continue;
      }
      List<String> needed = new ArrayList<>();
      for (EventSource event : function.events()) {
        if (event.enabled()) {
          needed.add(
              switch (event.type()) {
                case "SQS" -> "SQS";
                case "Kinesis" -> "KINESIS";
                case "DynamoDB" -> "DYNAMODB_STREAM";
                case "Schedule" -> "SCHEDULED";
                default -> throw new AssertionError("unexpected event type " + event.type());
              });
        }
      }
      if (template
          .resource(function.logicalId())
          .orElseThrow()
          .properties()
          .has("FunctionUrlConfig")) {
        needed.add("HTTP_EVENT");
      }
      for (String shape : needed) {
        checked++;
        if (!accepts(entryPoint, shape)) {
          problems.add(
              function.logicalId()
                  + " receives "
                  + shape
                  + " payloads but its entry point routes none");
        }
      }
    }
    assertTrue(checked >= 3, "routes checked: " + checked);
    assertEquals(List.of(), problems);
  }

  /**
   * Whoever may invoke a function can hand it any JSON: the function producers invoke directly (the
   * one an output says to invoke) routes no event source, and a function with event sources routes
   * only the sources it declares, none through an {@code any...} route.
   */
  @Test
  void directInvokesAndEventSourcesAreKeptApart() throws Exception {
    String outputs = Files.readString(ROOT.resolve("template.yaml"));
    outputs = outputs.substring(outputs.indexOf("\nOutputs:"));
    List<String> problems = new ArrayList<>();
    int direct = 0;
    for (FunctionDef function : template.functions()) {
      Object entryPoint = entryPointOf(function);
      if (entryPoint == null) {
        continue;
      }
      @SuppressWarnings("unchecked")
      List<String> routes =
          (List<String>) entryPoint.getClass().getMethod("routes").invoke(entryPoint);
      routes.stream()
          .filter(route -> route.contains("any other"))
          .forEach(route -> problems.add(function.logicalId() + " routes " + route));
      if (!outputs.contains("!Ref " + function.logicalId() + ".Alias")) {
        continue;
      }
      direct++;
      if (!function.events().isEmpty()) {
        problems.add(function.logicalId() + " is invoked directly yet has event sources");
      }
      for (String shape : List.of("SQS", "KINESIS", "DYNAMODB_STREAM", "SCHEDULED")) {
        if (accepts(entryPoint, shape)) {
          problems.add(function.logicalId() + " is invoked directly yet routes " + shape);
        }
      }
    }
    assertEquals(1, direct, "the functions an output says to invoke directly");
    assertEquals(List.of(), problems);
  }

  @Test
  void everyPolicyNamesAResourceOfTheTemplate() {
    List<String> problems = new ArrayList<>();
    Set<String> grants = new TreeSet<>();
    for (FunctionDef function : template.functions()) {
      if (!function.ownRole()) {
        problems.add(
            function.logicalId()
                + " has no Role of its own: SAM would attach AWSLambdaBasicExecutionRole (and a"
                + " managed policy per event source), granted on every resource");
      }
      for (JsonNode policy : function.policies()) {
        if (policy.isTextual()) {
          problems.add(
              function.logicalId()
                  + " has the managed policy "
                  + policy.asText()
                  + ", not scoped to a resource");
          continue;
        }
        for (JsonNode statement : policy.path("Statement")) {
          grants.add(function.logicalId() + " " + statement.path("Sid").asText());
          JsonNode resources = statement.get("Resource");
          if (resources == null) {
            problems.add(function.logicalId() + " has a statement without Resource");
            continue;
          }
          for (JsonNode resource : resources.isArray() ? resources : List.of(resources)) {
            String named = Intrinsics.referencedLogicalId(resource);
            Set<String> referenced =
                named == null ? Intrinsics.references(resource) : Set.of(named);
            if (referenced.isEmpty() || !referenced.stream().allMatch(this::isResource)) {
              problems.add(
                  function.logicalId()
                      + " grants "
                      + statement.path("Action")
                      + " on "
                      + resource
                      + ", not a resource of the template");
            }
          }
        }
        if (!policy.has("Statement")) {
          // A SAM policy template: every parameter names a resource.
          policy
              .fields()
              .forEachRemaining(
                  t ->
                      t.getValue()
                          .fields()
                          .forEachRemaining(
                              p -> {
                                String named = Intrinsics.referencedLogicalId(p.getValue());
                                if (named == null || !isResource(named)) {
                                  problems.add(
                                      function.logicalId()
                                          + "'s "
                                          + t.getKey()
                                          + " names "
                                          + p.getValue()
                                          + ", not a resource of the template");
                                }
                              }));
        }
      }
    }
    // The roles' statements were read: a function's permissions are not silently empty.
    assertTrue(
        grants.containsAll(
            Set.of(
                "AppFunction StateTable",
                "AppFunction ReadIngressQueue",
                "AppFunction ReadTransactions",
                "IngressFunction StateTable",
                "HelloFunction CountGreetings")),
        grants.toString());
    assertEquals(List.of(), problems);
  }

  @Test
  void everyReferenceNamesAResource() {
    List<String> problems = new ArrayList<>();
    for (FunctionDef function : template.functions()) {
      function
          .environment()
          .forEach(
              (name, value) ->
                  Intrinsics.references(value).stream()
                      .filter(r -> !isResource(r) && !r.startsWith("AWS::"))
                      .forEach(r -> problems.add(function.logicalId() + " " + name + " -> " + r)));
      for (EventSource event : function.events()) {
        Intrinsics.references(event.properties()).stream()
            .filter(r -> !isResource(r) && !r.startsWith("AWS::"))
            .forEach(
                r -> problems.add(function.logicalId() + " event " + event.name() + " -> " + r));
      }
    }
    for (Resource resource : template.resources()) {
      Intrinsics.references(resource.properties()).stream()
          .filter(r -> !isResource(r) && !r.startsWith("AWS::"))
          .forEach(r -> problems.add(resource.logicalId() + " -> " + r));
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void theDeploymentIsWhatTheApplicationReliesOn() {
    for (FunctionDef function : template.functions()) {
      for (EventSource event : function.events()) {
        if (event.type().equals("SQS")
            || event.type().equals("Kinesis")
            || event.type().equals("DynamoDB")) {
          assertTrue(
              event.reportsBatchItemFailures(),
              function.logicalId() + " " + event.name() + " must report batch item failures");
        }
      }
    }
    FunctionDef app =
        template.functions().stream()
            .filter(f -> f.handlerClass().equals("dev.statekit.handlers.ApplicationHandler"))
            .findFirst()
            .orElseThrow();
    Set<String> eventTypes = new TreeSet<>();
    app.events().forEach(e -> eventTypes.add(e.type()));
    assertEquals(Set.of("Kinesis", "SQS", "Schedule"), eventTypes);
    for (EventSource event : app.events()) {
      assertTrue(event.enabled(), app.logicalId() + " " + event.name() + " is switched on");
      if (event.type().equals("Kinesis")) {
        JsonNode properties = event.properties();
        // The batch is a checkpoint: a retry resumes at the first failed record, never a half.
        assertEquals("false", properties.path("BisectBatchOnFunctionError").asText());
        assertTrue(properties.path("MaximumRetryAttempts").asInt(-1) >= 0, "retries bounded");
        assertTrue(
            isResource(
                Intrinsics.referencedLogicalId(
                    properties.at("/DestinationConfig/OnFailure/Destination"))),
            "batches given up on are recorded: " + properties);
      }
    }
    // The batch timeout the fraud check waits for is the function's own timeout.
    assertEquals(
        Long.toString(app.timeoutSeconds()),
        app.environment().get("STATEKIT_BATCH_TIMEOUT_SECONDS").asText());
    Resource appResource = template.resource(app.logicalId()).orElseThrow();
    assertEquals(
        "AWS_IAM", appResource.properties().path("FunctionUrlConfig").path("AuthType").asText());

    Resource table = template.resources("AWS::DynamoDB::Table").get(0);
    assertTrue(table.properties().path("TimeToLiveSpecification").path("Enabled").asBoolean());
    assertTrue(
        table
            .properties()
            .path("PointInTimeRecoverySpecification")
            .path("PointInTimeRecoveryEnabled")
            .asBoolean());
    Resource ingress = template.resource("IngressQueue").orElseThrow();
    assertTrue(ingress.flag("FifoQueue", false));
    assertTrue(
        isResource(
            Intrinsics.referencedLogicalId(
                ingress.properties().path("RedrivePolicy").get("deadLetterTargetArn"))));
    assertEquals(1, template.resources("AWS::Kinesis::Stream").size());
  }

  /**
   * A function's handler built from the jar through its {@code (Variables)} constructor, with the
   * template's environment (references resolved to made-up names) and Lambda's region.
   */
  private record Wired(Object handler, Object variables) {
    static Wired of(FunctionDef function) throws Exception {
      LocalResources fake = FakeResources.of(template);
      Map<String, String> environment = new HashMap<>();
      function
          .environment()
          .forEach((name, value) -> environment.put(name, fake.resolve(value, "us-east-1")));
      environment.put("AWS_REGION", "us-east-1");
      Class<?> variablesClass = jar.loadClass("dev.statekit.handlers.Variables");
      Object variables = variablesClass.getMethod("of", Map.class).invoke(null, environment);
      Object handler =
          jar.loadClass(function.handlerClass())
              .getConstructor(variablesClass)
              .newInstance(variables);
      // What the handler builds on first use (its clients, runtime and pipelines, and the
      // variables their wiring reads), priming builds now: as before a SnapStart snapshot.
      Class<?> stateKit = jar.loadClass("dev.statekit.handlers.StateKitHandler");
      if (stateKit.isInstance(handler)) {
        Object entryPoint = stateKit.getMethod("entryPoint").invoke(handler);
        entryPoint.getClass().getMethod("prime").invoke(entryPoint);
      }
      return new Wired(handler, variables);
    }

    @SuppressWarnings("unchecked")
    Set<String> names(String method) throws ReflectiveOperationException {
      return (Set<String>) variables.getClass().getMethod(method).invoke(variables);
    }
  }

  /** The entry point of a function whose handler is a StateKitHandler, else null. */
  private static Object entryPointOf(FunctionDef function) throws Exception {
    Class<?> stateKit = jar.loadClass("dev.statekit.handlers.StateKitHandler");
    Object handler = Wired.of(function).handler();
    return stateKit.isInstance(handler) ? stateKit.getMethod("entryPoint").invoke(handler) : null;
  }

  /** Whether {@code entryPoint} routes payloads of the {@code PayloadShape} named {@code shape}. */
  private static boolean accepts(Object entryPoint, String shape) throws Exception {
    Class<?> shapes = jar.loadClass("dev.statekit.entry.PayloadShape");
    @SuppressWarnings({"unchecked", "rawtypes"})
    Object value = Enum.valueOf((Class) shapes, shape);
    return (Boolean) entryPoint.getClass().getMethod("accepts", shapes).invoke(entryPoint, value);
  }

  private boolean isResource(String logicalId) {
    return logicalId != null && template.resource(logicalId).isPresent();
  }

  private static Method findTwoArgumentMethod(Class<?> handler, String name, Class<?> context) {
    for (Method method : handler.getMethods()) {
      if (method.getName().equals(name)
          && method.getParameterCount() == 2
          && method.getParameterTypes()[1] == context) {
        return method;
      }
    }
    throw new AssertionError(handler.getName() + " has no public " + name + "(event, Context)");
  }
}
