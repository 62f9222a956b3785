package dev.statekit.function.spi;

import dev.statekit.function.Address;
import dev.statekit.function.EgressMessage;
import dev.statekit.function.Message;
import java.util.Objects;

/**
 * Lets StateKit's transports build and read messages without copying their bytes, which the public
 * API must do to stay immutable. The function package installs the access when its message classes
 * load. Not for users.
 */
public final class Payloads {
  private static volatile Access access;

  private Payloads() {}

  /** What the function package grants. */
  public interface Access {
    /** A message holding {@code value} itself. */
    Message message(Address target, String typeName, byte[] value);

    /** The message's bytes themselves. */
    byte[] bytes(Message message);

    /** The record's bytes themselves. */
    byte[] bytes(EgressMessage message);

    /** The message's type name as sent. */
    String typeName(Message message);

    /** The record's type name as sent. */
    String typeName(EgressMessage message);
  }

  /**
   * Called once by the function package.
   *
   * @throws IllegalStateException if called again
   */
  public static synchronized void install(Access granted) {
    if (access != null) {
      throw new IllegalStateException("The payload access is installed by StateKit itself");
    }
    access = Objects.requireNonNull(granted);
  }

  /** The access, loading the message classes first if needed. */
  public static Access access() {
    Access current = access;
    if (current == null) {
      try {
        Class.forName(Message.class.getName(), true, Payloads.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      current = access;
    }
    return current;
  }
}
