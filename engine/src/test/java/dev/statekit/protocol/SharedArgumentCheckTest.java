package dev.statekit.protocol;

import static dev.statekit.protocol.PeerWire.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.statefun.sdk.reqreply.generated.TypedValue;
import org.junit.jupiter.api.Test;

/**
 * The handler remembers the last argument type name that passed its check, shared by every thread
 * and every request: no interleaving of good and bad names on one handler, nor a name passed by
 * another handler, may let a bad name through or refuse a good one.
 */
class SharedArgumentCheckTest {
  private static final List<String> BAD = List.of("no-slash", "ns/", "/name", "");

  private static byte[] request(TypedValue argument) {
    return PeerWire.request("test", "counter", "a")
        .state("seen")
        .state("total")
        .state("note")
        .message(argument)
        .bytes();
  }

  private static byte[] bad(String typeName) {
    return request(TypedValue.newBuilder().setTypename(typeName).setHasValue(true).build());
  }

  @Test
  void threadsInterleavingGoodAndBadNamesOnOneHandler() throws Exception {
    RequestReplyHandler handler = new RequestReplyHandler(ConformanceFunctions.registry());
    byte[] good = request(string("hello"));
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t;
        Callable<Integer> work =
            () -> {
              int refused = 0;
              for (int round = 0; round < 1_000; round++) {
                handler.invoke(good);
                String name = BAD.get((round + offset) % BAD.size());
                var e =
                    assertThrows(MalformedRequestException.class, () -> handler.invoke(bad(name)));
                assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
                refused++;
              }
              return refused;
            };
        done.add(threads.submit(work));
      }
      for (Future<Integer> f : done) {
        assertEquals(1_000, f.get());
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aNamePassedByOneHandlerIsCheckedByAnother() {
    RequestReplyHandler first = new RequestReplyHandler(ConformanceFunctions.registry());
    RequestReplyHandler second = new RequestReplyHandler(ConformanceFunctions.registry());
    first.invoke(request(string("hello")));
    for (String name : BAD) {
      var e = assertThrows(MalformedRequestException.class, () -> second.invoke(bad(name)));
      assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
    }
    second.invoke(request(string("hello")));
  }

  @Test
  void aLongNameThatIsNeverInternedIsCheckedEveryTime() {
    RequestReplyHandler handler = new RequestReplyHandler(ConformanceFunctions.registry());
    String longBad = "x".repeat(200);
    for (int round = 0; round < 3; round++) {
      var e = assertThrows(MalformedRequestException.class, () -> handler.invoke(bad(longBad)));
      assertTrue(e.getMessage().contains("is not namespace/name"), e.getMessage());
    }
  }
}
