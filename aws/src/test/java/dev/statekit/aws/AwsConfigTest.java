package dev.statekit.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

class AwsConfigTest {

  @Test
  void endpointVariablesPointServicesAtEmulators() {
    AwsConfig config =
        AwsConfig.fromVariables(
            Map.of(
                AwsConfig.DYNAMODB_ENDPOINT, "http://127.0.0.1:8000", "AWS_REGION", "eu-west-1"));

    assertEquals(URI.create("http://127.0.0.1:8000"), config.dynamoDbEndpoint().orElseThrow());
    assertTrue(config.sqsEndpoint().isEmpty());
    assertEquals(Region.EU_WEST_1, config.region());
    assertTrue(config.credentials() instanceof StaticCredentialsProvider);
  }

  @Test
  void lambdaEnvironmentUsesTheRoleKeys() {
    AwsConfig config =
        AwsConfig.fromVariables(Map.of("AWS_ACCESS_KEY_ID", "AKIA", "AWS_REGION", "us-west-2"));

    assertTrue(config.credentials() instanceof EnvironmentVariableCredentialsProvider);
    assertTrue(config.dynamoDbEndpoint().isEmpty());
  }

  @Test
  void snapStartFunctionsUseTheContainerCredentialsEndpoint() {
    AwsConfig config =
        AwsConfig.fromVariables(
            Map.of(
                "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                    "http://127.0.0.1:9001/2021-04-23/credentials",
                "AWS_REGION", "us-west-2"));

    assertTrue(config.credentials() instanceof ContainerCredentialsProvider);
  }

  @Test
  void relativeEndpointIsRefusedWithAnExample() {
    var error =
        assertThrows(
            IllegalArgumentException.class,
            () -> AwsConfig.fromVariables(Map.of(AwsConfig.SQS_ENDPOINT, "localhost:9324")));

    assertTrue(error.getMessage().contains(AwsConfig.SQS_ENDPOINT), error.getMessage());
    assertTrue(error.getMessage().contains("http://"), error.getMessage());
  }
}
