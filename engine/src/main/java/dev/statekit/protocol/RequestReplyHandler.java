package dev.statekit.protocol;

import dev.statekit.function.FunctionInvocationException;
import dev.statekit.function.IncompatibleStateException;
import dev.statekit.function.StatefulFunctions;
import dev.statekit.function.UnknownFunctionException;
import dev.statekit.function.ValueSpec;
import dev.statekit.invocation.AddressRun;
import dev.statekit.invocation.FunctionEngine;
import dev.statekit.invocation.InvocationEffects;
import dev.statekit.types.TypeName;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Serves a registry of functions over the Apache Flink Stateful Functions 3.x request-reply
 * protocol: {@link #invoke} takes the bytes of a {@code ToFunction} and answers the bytes of a
 * {@code FromFunction}, as a StateFun runtime expects from a remote function. Transports (the HTTP
 * endpoint, the Lambda handler) only move bytes.
 *
 * <p>A batch runs its messages in order, threading state; the answer carries every side effect and
 * the final value of each state the batch wrote or removed. If the request lacks a declared state,
 * the answer lists every missing spec instead and the runtime resends the batch with them.
 * Thread-safe: build one per application and share it.
 */
public final class RequestReplyHandler {
  /** Enough for most batches: the effects array grows past it only for a large one. */
  private static final int FIRST_EFFECTS_LENGTH = 64;

  private final FunctionEngine engine;
  private final Utf8Cache utf8 = new Utf8Cache();
  private final StringInterner strings = new StringInterner();

  /**
   * An argument type name that passed {@link RequestDecoding#checkArgumentType}: the reader interns
   * type names, so the next request's arguments usually hold this very instance and need no check.
   * The check depends on the text alone, so a racy read of another thread's string (immutable,
   * safely published through its final fields) is as good as the thread's own.
   */
  private String checkedArgumentType;

  /** A handler for these functions. */
  public RequestReplyHandler(StatefulFunctions functions) {
    this.engine = new FunctionEngine(Objects.requireNonNull(functions, "functions"));
  }

  /** The functions served. */
  public StatefulFunctions functions() {
    return engine.functions();
  }

  /**
   * Answers one request.
   *
   * @param toFunction the bytes of a {@code ToFunction}
   * @return the bytes of the {@code FromFunction}
   * @throws MalformedRequestException if the bytes are not a usable {@code ToFunction}
   * @throws UnknownFunctionException if no function is registered for the target's type
   * @throws IncompatibleStateException if a state value's type is not the declared one
   * @throws FunctionInvocationException if the function failed on a message (the whole batch fails:
   *     the runtime retries it)
   */
  public byte[] invoke(byte[] toFunction) {
    return invoke(toFunction, null);
  }

  /**
   * Answers one request that must be for the function type {@code expectedType} (e.g. the type
   * named by the URL path it came to).
   *
   * @throws MalformedRequestException also if the request's target is of another type
   */
  public byte[] invoke(byte[] toFunction, TypeName expectedType) {
    ToFunctionReader request = parse(toFunction);
    try {
      return answer(request, expectedType);
    } finally {
      request.release();
    }
  }

  private byte[] answer(ToFunctionReader request, TypeName expectedType) {
    String[] target = request.target;
    RequestDecoding.check(target, "target");
    String namespace = RequestDecoding.namespace(target[0]);
    if (expectedType != null
        && !(expectedType.namespace().equals(namespace) && expectedType.name().equals(target[1]))) {
      throw new MalformedRequestException(
          "The request is for "
              + Shown.shown(String.join("/", target))
              + " but was sent to the endpoint of "
              + expectedType
              + "; send it to the path of its own type or to the catch-all path");
    }
    // A batch of no messages is answered (no effects, no state changes) as the SDK answers it.
    int count = request.invocationCount;
    AddressRun run = engine.open(namespace, target[1], target[2]);
    offerStates(request, run);
    List<ValueSpec<?>> missing = run.missingValues();
    if (!missing.isEmpty()) {
      return IncompleteContext.answer(missing);
    }
    // The reader keeps the invocations up to the first one refused below: a batch with more gets
    // no further than that one.
    int kept = request.keptInvocationCount;
    // Grown as the invocations run, not sized by the count: a batch that fails early allocates
    // next to nothing for the invocations it never runs.
    InvocationEffects[] effects = new InvocationEffects[Math.min(kept, FIRST_EFFECTS_LENGTH)];
    // A batch's arguments usually share one (interned) type name: check it once.
    String checkedType = null;
    for (int i = 0; i < kept; i++) {
      String[] caller = request.caller(i);
      String type = request.argumentType(i);
      if (type != checkedType) {
        if (type != checkedArgumentType) {
          RequestDecoding.checkArgumentType(type, run.self(), i);
          checkedArgumentType = type;
        }
        checkedType = type;
      }
      RequestDecoding.checkArgumentSet(request.argumentSet(i), run.self(), i);
      if (i == effects.length) {
        effects = Arrays.copyOf(effects, Math.min(kept, i * 2));
      }
      effects[i] =
          run.invoke(
              caller == null ? null : RequestDecoding.address(caller, "caller"),
              type,
              request.argumentValue(i));
    }
    if (kept < count) {
      throw new IllegalStateException(
          "The request reader kept "
              + kept
              + " of "
              + count
              + " invocations though all of those it kept ran; this is a bug in StateKit");
    }
    return FromFunctionWriter.result(effects, count, run.mutations(), utf8);
  }

  /**
   * Offers the run the request's states it awaits. A state's name is compared in place with the
   * names the function declares, never decoded (a forged request may name millions of states), and
   * only a value the run takes is copied out of the request: one of a state it does not declare, or
   * of one named again, would be dropped. Past a few declared values, each state's name is hashed
   * once and compared only with the declared names of its hash: comparing it with every declared
   * name made a forged request's CPU grow with the states times the declared values.
   */
  private static void offerStates(ToFunctionReader request, AddressRun run) {
    int declared = run.declaredCount();
    if (declared <= FEW_DECLARED) {
      for (int i = 0; i < request.stateCount; i++) {
        for (int d = 0; d < declared; d++) {
          if (request.stateNamed(i, run.declaredName(d))) {
            offer(request, i, run, d);
            break;
          }
        }
      }
      return;
    }
    int mask = Integer.highestOneBit(2 * declared - 1) * 2 - 1;
    int[] slots = new int[mask + 1];
    int[] hashes = new int[declared];
    for (int d = 0; d < declared; d++) {
      hashes[d] = ToFunctionReader.nameHash(run.declaredName(d));
      int slot = spread(hashes[d]) & mask;
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = d + 1;
    }
    for (int i = 0; i < request.stateCount; i++) {
      int hash = request.stateNameHash(i);
      for (int slot = spread(hash) & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
        int d = slots[slot] - 1;
        if (hashes[d] == hash && request.stateNamed(i, run.declaredName(d))) {
          offer(request, i, run, d);
          break;
        }
      }
    }
  }

  /** Declared values up to which each state's name is compared with each declared name. */
  private static final int FEW_DECLARED = 4;

  private static int spread(int hash) {
    return hash ^ (hash >>> 16);
  }

  /** Offers state {@code i} of the request as declared value {@code d}, if the run awaits it. */
  private static void offer(ToFunctionReader request, int i, AddressRun run, int d) {
    if (run.awaits(d)) {
      run.offer(d, request.stateValue(i));
    }
  }

  private ToFunctionReader parse(byte[] bytes) {
    Objects.requireNonNull(bytes, "toFunction");
    if (bytes.length == 0) {
      throw new MalformedRequestException(
          "The request is empty; send the bytes of a StateFun ToFunction message");
    }
    ToFunctionReader request = ToFunctionReader.borrow(bytes, strings);
    if (!request.hasBatch) {
      request.release();
      throw new MalformedRequestException(
          "The ToFunction carries no invocation batch (field 100); it is either not a ToFunction"
              + " or was cut short");
    }
    if (request.target == null) {
      request.release();
      throw new MalformedRequestException(
          "The invocation batch has no target address; the runtime always sends one");
    }
    return request;
  }
}
