package dev.statekit.local;

import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code namespace/type/id} from the command line. */
final class AddressArgument implements ITypeConverter<Address> {
  @Override
  public Address convert(String value) {
    int last = value.lastIndexOf('/');
    int first = value.indexOf('/');
    if (first <= 0 || last == first || last == value.length() - 1) {
      throw new TypeConversionException(
          "'" + value + "' is not an address: write namespace/type/id, e.g. shop/cart/ada");
    }
    try {
      return Address.of(
          TypeName.of(value.substring(0, first), value.substring(first + 1, last)),
          value.substring(last + 1));
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("'" + value + "' is not an address: " + e.getMessage());
    }
  }
}
