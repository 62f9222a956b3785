package dev.statekit.stream.state.internal;

import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.state.StateSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes all of one key's states as one byte array: for each non-empty state its name, its
 * namespace (absent for none) and its value. States are found by name on reading, so an operator
 * may add states between versions; states no longer registered are dropped.
 */
final class EntryCodec {
  private final List<StateSpec<?>> specs;
  private final Serde<Object> namespaceSerde;

  /**
   * Each spec's name as {@link DataOutputStream#writeUTF} writes it, once: an entry writes the name
   * before every state of every window, and encoding it each time was a fortieth of a batch's CPU.
   */
  private final byte[][] names;

  /** Each spec's index by name. */
  private final Map<String, Integer> index = new HashMap<>();

  EntryCodec(List<StateSpec<?>> specs, Serde<Object> namespaceSerde) {
    this.specs = specs;
    this.namespaceSerde = namespaceSerde;
    this.names = new byte[specs.size()][];
    for (int i = 0; i < specs.size(); i++) {
      ByteArrayOutputStream name = new ByteArrayOutputStream();
      try {
        new DataOutputStream(name).writeUTF(specs.get(i).name());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      names[i] = name.toByteArray();
      index.put(specs.get(i).name(), i);
    }
  }

  /** The entry's bytes, or null if it holds no state. */
  byte[] encode(KeyEntry entry) {
    entry.compact();
    if (entry.isEmpty()) {
      return null;
    }
    // About the size it had: growing the buffer, copy after copy, was a twentieth of a batch's CPU.
    EntryBytes out = new EntryBytes(entry.validBytes == null ? 64 : entry.validBytes.length + 32);
    writeSpace(out, null, entry.slots);
    if (entry.spaces != null) {
      for (var space : entry.spaces.entrySet()) {
        writeSpace(out, namespaceSerde.encode(space.getKey()), space.getValue());
      }
    }
    return out.toByteArray();
  }

  private void writeSpace(EntryBytes out, byte[] namespace, Object[] values) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        out.write(names[i]);
        out.writeSized(namespace);
        writeState(out, specs.get(i), values[i]);
      }
    }
  }

  /** The state's bytes, sized: its value's, or its elements' with their count before them. */
  private static void writeState(EntryBytes out, StateSpec<?> spec, Object value) {
    if (spec.kind() == StateSpec.Kind.VALUE) {
      out.writeSized(spec.serde().encode(value));
      return;
    }
    EntryBytes elements = new EntryBytes(64);
    if (spec.kind() == StateSpec.Kind.LIST) {
      List<?> list = (List<?>) value;
      elements.writeInt(list.size());
      for (Object element : list) {
        elements.writeSized(spec.serde().encode(element));
      }
    } else {
      Map<?, ?> map = (Map<?, ?>) value;
      elements.writeInt(map.size());
      for (var e : map.entrySet()) {
        elements.writeSized(spec.mapKeySerde().encode(e.getKey()));
        elements.writeSized(spec.serde().encode(e.getValue()));
      }
    }
    out.writeSized(elements.toByteArray());
  }

  /** Fills a fresh entry from bytes written by {@link #encode}. */
  void decode(byte[] data, KeyEntry entry) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      while (in.available() > 0) {
        Integer i = index.get(in.readUTF());
        byte[] namespace = readBytes(in);
        byte[] payload = readBytes(in);
        if (i != null) {
          Object[] space =
              namespace == null ? entry.slots : entry.space(namespaceSerde.decode(namespace), true);
          space[i] = decodeState(specs.get(i), payload);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Stored state of key " + entry.key + " is corrupt", e);
    }
  }

  private static Object decodeState(StateSpec<?> spec, byte[] payload) throws IOException {
    if (spec.kind() == StateSpec.Kind.VALUE) {
      return spec.serde().decode(payload);
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
    int n = in.readInt();
    if (spec.kind() == StateSpec.Kind.LIST) {
      List<Object> list = new ArrayList<>(n);
      for (int k = 0; k < n; k++) {
        list.add(spec.serde().decode(readBytes(in)));
      }
      return list;
    }
    Map<Object, Object> map = new HashMap<>();
    for (int k = 0; k < n; k++) {
      Object key = spec.mapKeySerde().decode(readBytes(in));
      map.put(key, spec.serde().decode(readBytes(in)));
    }
    return map;
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      return null;
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }
}
