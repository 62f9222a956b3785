package dev.statekit.bus;

import dev.statekit.function.Address;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.types.TypeName;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code namespace/type/id} addresses against the registered function types. Namespaces and
 * ids may hold {@code /}, so the text alone is ambiguous; the registered types settle it, and the
 * runtime refuses registries where one type's {@code namespace/name/} starts another's.
 */
public final class AddressResolver {
  private final List<TypeName> types;

  /**
   * The types of {@code functions}.
   *
   * @throws IllegalArgumentException if one type name, followed by {@code /}, starts another
   */
  public AddressResolver(StatefulFunctions functions) {
    this.types = new ArrayList<>(functions.types());
    for (TypeName a : types) {
      for (TypeName b : types) {
        if (!a.equals(b) && (b.asString() + "/").startsWith(a.asString() + "/")) {
          throw new IllegalArgumentException(
              "Function types "
                  + a
                  + " and "
                  + b
                  + " make addresses ambiguous ('"
                  + b
                  + "/x' could be "
                  + a
                  + " with id '"
                  + b.name()
                  + "/x'); rename one so neither name followed by '/' starts the other");
        }
      }
    }
  }

  /**
   * The address {@code text} names.
   *
   * @throws InvalidEnvelopeException if no registered type matches or the id is empty
   */
  public Address parse(String text) {
    for (TypeName type : types) {
      String prefix = type.asString() + "/";
      if (text.startsWith(prefix) && text.length() > prefix.length()) {
        return Address.of(type, text.substring(prefix.length()));
      }
    }
    throw InvalidEnvelopeException.targetUnknown(
        "No registered function matches the target '"
            + text
            + "': write it as namespace/type/id with one of the registered types "
            + types);
  }
}
