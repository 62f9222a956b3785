package dev.statekit.local;

import dev.statekit.application.Application;
import dev.statekit.local.template.FunctionDef;
import dev.statekit.local.template.Template;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An application's code, found the way Lambda finds it: each function's {@code CodeUri} (the jar
 * {@code mvn package} builds) on a class loader over the local runner's own, so the runner depends
 * on no application at compile time. A class the runner already sees (its own classes, an
 * application on its class path in tests) is taken from there.
 */
final class ApplicationCode {
  private static final Map<String, ClassLoader> LOADERS = new ConcurrentHashMap<>();

  private ApplicationCode() {}

  /** The class loader of the template's functions' code. */
  static ClassLoader loader(Template template) {
    Set<Path> jars = new LinkedHashSet<>();
    for (FunctionDef function : template.functions()) {
      template.codeUri(function.logicalId()).ifPresent(jars::add);
    }
    return LOADERS.computeIfAbsent(jars.toString(), key -> newLoader(jars));
  }

  /**
   * Loads {@code className} for function {@code logicalId}.
   *
   * @throws IllegalStateException saying what to build or fix
   */
  static Class<?> load(Template template, FunctionDef function, String className) {
    try {
      return Class.forName(className, true, loader(template));
    } catch (ClassNotFoundException e) {
      Optional<Path> code = template.codeUri(function.logicalId());
      String where =
          code.map(
                  p ->
                      Files.exists(p)
                          ? "not in its CodeUri " + p
                          : "in its CodeUri "
                              + p
                              + ", which does not exist: build it (mvn package)")
              .orElse("and the template gives it no CodeUri");
      throw new IllegalStateException(
          function.logicalId() + "'s class " + className + " is " + where, e);
    }
  }

  /**
   * The application the template's function declares with {@value Application#VARIABLE}, loaded
   * from its code.
   *
   * @throws IllegalStateException if the function declares none or it can't be loaded
   */
  static Application application(Template template, FunctionDef function) {
    var named = function.environment().get(Application.VARIABLE);
    if (named == null || !named.isTextual()) {
      throw new IllegalStateException(
          function.logicalId()
              + " in "
              + template.source()
              + " sets no "
              + Application.VARIABLE
              + ": name the application's StateKitApplication class there, so the local runner"
              + " can wire it");
    }
    Class<?> type = load(template, function, named.asText());
    return Application.load(type.getName(), type.getClassLoader());
  }

  /**
   * The function that runs the application: the one behind the function URL if it declares the
   * application, else the first that does.
   */
  static Optional<FunctionDef> applicationFunction(Template template) {
    List<FunctionDef> candidates = new ArrayList<>();
    template.urlFunction().ifPresent(candidates::add);
    candidates.addAll(template.functions());
    return candidates.stream()
        .filter(f -> f.environment().containsKey(Application.VARIABLE))
        .findFirst();
  }

  private static ClassLoader newLoader(Set<Path> jars) {
    List<URL> urls = new ArrayList<>();
    for (Path jar : jars) {
      if (Files.exists(jar)) {
        try {
          urls.add(jar.toUri().toURL());
        } catch (MalformedURLException e) {
          throw new IllegalStateException("CodeUri " + jar + " is not a path: " + e.getMessage());
        }
      }
    }
    ClassLoader runner = ApplicationCode.class.getClassLoader();
    return urls.isEmpty()
        ? runner
        : new URLClassLoader("statekit-application", urls.toArray(URL[]::new), runner);
  }
}
