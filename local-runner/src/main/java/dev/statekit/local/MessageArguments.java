package dev.statekit.local;

import dev.statekit.function.Address;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The message {@code send} and {@code call} take: an address, a value, its type and a key. */
final class MessageArguments {
  @Parameters(
      index = "0",
      paramLabel = "ADDRESS",
      converter = AddressArgument.class,
      description = "namespace/type/id, e.g. shop/cart/ada")
  Address target;

  @Parameters(
      index = "1",
      paramLabel = "VALUE",
      description = "The value: text, or JSON with --type")
  String value;

  @Option(
      names = {"-t", "--type"},
      paramLabel = "TYPENAME",
      description = "The value's type name, e.g. shop/add-item (default: io.statefun.types/string)")
  String type;

  @Option(
      names = "--id",
      paramLabel = "KEY",
      description =
          "An idempotency key: the same key again is applied once (a call answers the same reply).")
  String id;
}
