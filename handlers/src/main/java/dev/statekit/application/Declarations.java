package dev.statekit.application;

import java.lang.reflect.InvocationTargetException;

/** Loads an application's declaration from its class name, with errors that say what to fix. */
final class Declarations {
  private Declarations() {}

  /**
   * The declaration if {@code loader} sees {@code className} as a StateKitApplication of this
   * StateKit (not a copy loaded apart), else null.
   */
  static Application loadIfVisible(String className, ClassLoader loader) {
    try {
      Class<?> type = Class.forName(className.trim(), false, loader);
      return StateKitApplication.class.isAssignableFrom(type) ? load(className, loader) : null;
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  static Application load(String className, ClassLoader loader) {
    String name = className == null ? "" : className.trim();
    if (name.isEmpty()) {
      throw new IllegalStateException(
          Application.VARIABLE + " is empty: it names the application's StateKitApplication class");
    }
    Class<?> type;
    try {
      type = Class.forName(name, true, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          Application.VARIABLE
              + " names "
              + name
              + ", which is not on the class path (is the application's jar the one deployed?)",
          e);
    }
    if (!StateKitApplication.class.isAssignableFrom(type)) {
      throw new IllegalStateException(
          name
              + " ("
              + Application.VARIABLE
              + ") does not implement "
              + StateKitApplication.class.getName());
    }
    try {
      Application application =
          ((StateKitApplication) type.getConstructor().newInstance()).application();
      if (application == null) {
        throw new IllegalStateException(name + ".application() returned null");
      }
      return application;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(name + " needs a public no-argument constructor", e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          name + " failed to declare the application: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot construct " + name + ": " + e, e);
    }
  }
}
