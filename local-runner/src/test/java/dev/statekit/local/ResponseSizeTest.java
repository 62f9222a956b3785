package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.local.template.FunctionDef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lambda returns at most 6 MB from a synchronous invocation (its quota on the invocation payload,
 * "request and response"): a function that answers more fails the invocation with {@code
 * Function.ResponseSizeTooLarge} ("Response payload size exceeded maximum allowed payload size
 * (6291556 bytes)"), a function error. The local runner refuses requests over 6 MB but hands any
 * answer back, so a function whose answers outgrow the limit passes locally and fails on AWS (its
 * invoke API callers get an error, its queue batches are retried until the dead-letter queue).
 */
class ResponseSizeTest {
  @Test
  void anAnswerOverLambdasSixMegabytesIsAFunctionError() {
    byte[] big = new byte[7 * 1024 * 1024];
    java.util.Arrays.fill(big, (byte) 'a');
    big[0] = '"';
    big[big.length - 1] = '"';
    RequestStreamHandler answersSevenMegabytes = (in, out, context) -> out.write(big);
    LocalFunction function =
        new LocalFunction(
            new FunctionDef("AppFunction", "x.Big", Map.of(), List.of(), null, false, 512, 30),
            answersSevenMegabytes);

    LocalFunction.FunctionError error =
        assertThrows(
            LocalFunction.FunctionError.class,
            () -> function.invoke("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
            "a 7 MB answer is a function error on Lambda");
    assertTrue(error.getMessage().contains("6291556"), error.getMessage());
  }
}
